//! `entrez-mcp export`: a staged dataset written straight to a file (or standard output),
//! in any format `entrez_data export` offers, by whoever runs the binary on the machine that
//! holds the datasets (`ENTREZ_DATA_DIR`); or records saved as JSON Lines, or a PubMed XML
//! file, written in another format (`--from`). The pages are the same the MCP resources serve, joined.

use entrez_mcp_core::export::{self, style::Style, Format, Request};
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::staging::layouts::named;
use entrez_mcp_core::staging::store::DatasetStore;
use entrez_mcp_core::staging::Limits;
use std::io::Write;

/// The command's usage.
pub const USAGE: &str = "  entrez-mcp export DATA_ACCESS_ID [--format F] [--style S] [--sql SQL] [--output PATH]
                                           write a staged dataset (or the records or rows SQL selects) to PATH or stdout;
                                           F: ris (default), bibtex, csl_json, medline, csv, jsonl, text, markdown;
                                           S (text, markdown): vancouver (default), apa, ama, harvard, chicago
  entrez-mcp export --from FILE [--format F] [--style S] [--output PATH]
                                           write records saved as JSON Lines (format jsonl), or a PubMed XML
                                           file (efetch db=pubmed retmode=xml), in another format";

/// What the command line asked for.
struct Args {
    dataset: Option<String>,
    from: Option<String>,
    format: Format,
    style: Style,
    sql: Option<String>,
    output: Option<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        dataset: None,
        from: None,
        format: Format::Ris,
        style: Style::Vancouver,
        sql: None,
        output: None,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = || {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--format" => a.format = Format::named(&value()?).map_err(|e| e.message)?,
            "--style" => a.style = export::style_named(&value()?).map_err(|e| e.message)?,
            "--sql" => a.sql = Some(value()?),
            "--output" | "-o" => a.output = Some(value()?),
            "--from" => a.from = Some(value()?),
            other if !other.starts_with('-') && a.dataset.is_none() => {
                a.dataset = Some(other.to_string());
                i += 1;
                continue;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 2;
    }
    if a.dataset.is_some() == a.from.is_some() {
        return Err(
            "export takes a DATA_ACCESS_ID or --from FILE (JSON Lines or PubMed XML)".into(),
        );
    }
    Ok(a)
}

/// Runs `entrez-mcp export` with the arguments after the command.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = parse(args)?;
    let mut out: Box<dyn Write> = match &a.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    if let Some(file) = &a.from {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let records = if text.trim_start().starts_with('<') {
            export::record::from_pubmed_xml(text.as_bytes(), &[])
                .map_err(|e| format!("{file}: {e}"))?
        } else {
            export::records_from_jsonl(&text).map_err(|e| format!("{file}: {}", e.message))?
        };
        out.write_all(export::write_all(a.format, a.style, records).as_bytes())
            .map_err(|e| e.to_string())?;
        return out.flush().map_err(|e| e.to_string());
    }
    let id = a.dataset.clone().unwrap_or_default();
    let env = |name: &str| std::env::var(name).ok();
    let limits = Limits::from_lookup(env);
    let store = crate::store::SqliteStore::from_lookup(env)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let info = store
            .get(&id)
            .await
            .map_err(|e| e.message)?
            .ok_or_else(|| format!("no dataset {id} in this store (ENTREZ_DATA_DIR)"))?;
        let layout = named(&info.layout).map_err(|e| e.message)?;
        let request = Request {
            format: a.format,
            style: a.style,
            sql: a.sql.clone(),
        };
        let time_limit = limits.query_time_limit_ms;
        let plan = export::prepare(
            &store,
            &info,
            layout,
            &request,
            "0".repeat(16),
            crate::platform::SystemPlatform.now_unix_ms(),
            time_limit,
        )
        .await
        .map_err(|e| e.message)?;
        for page in 1..=plan.pages() {
            let text = export::page(&store, &plan, layout, page, time_limit)
                .await
                .map_err(|e| e.message)?;
            out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        }
        if info.status.as_str() != "complete" {
            eprintln!(
                "entrez-mcp: dataset {id} is {}: the export holds the {} records it held",
                info.status.as_str(),
                info.records
            );
        }
        out.flush().map_err(|e| e.to_string())
    })
}
