//! Tool calls end to end against the in-process stand-ins.

mod apart_tasks;
mod budgets;
mod cache;
mod carried_staging;
mod entrez_data_guard;
mod entrez_data_lifecycle;
mod entrez_data_replay;
mod entrez_external_replay;
mod entrez_query_replay;
mod held_tasks;
mod hostile_upstream;
mod task_ownership;
mod tasks;
