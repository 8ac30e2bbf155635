//! Tool calls end to end against the in-process stand-ins.

mod background_calls;
mod background_staging;
mod budgets;
mod cache;
mod chart_pixels;
mod charts;
mod citation_network;
mod citation_network_seeds;
mod citations;
mod entrez_data_across_calls;
mod entrez_data_guard;
mod entrez_data_lifecycle;
mod entrez_data_replay;
mod entrez_external_replay;
mod entrez_query_replay;
mod exports;
mod full_text;
mod hostile_upstream;
mod integrity;
mod pending_tasks;
mod pmc_dataset;
mod references;
mod references_names;
mod task_ownership;
mod tasks;
mod views;
