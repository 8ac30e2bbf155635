//! The native binary: `entrez-mcp serve` (Streamable HTTP), `entrez-mcp stdio`, or
//! `entrez-mcp export` (a staged dataset to a file).

fn main() -> std::process::ExitCode {
    native::main()
}

mod native {
    use entrez_mcp as native;
    use std::net::SocketAddr;
    use std::process::ExitCode;

    const USAGE: &str = "\
entrez-mcp: MCP server for NCBI Entrez

Usage:
  entrez-mcp stdio                         JSON-RPC over stdin/stdout (for Claude Desktop and other local clients)
  entrez-mcp serve [--listen ADDR:PORT]    Streamable HTTP at http://ADDR:PORT/mcp (default 127.0.0.1:8787)
{export}
  entrez-mcp --version

Configuration comes from the environment: NCBI_API_KEY, NCBI_EMAIL, NCBI_TOOL,
EUTILS_BASE_URL, PUBCHEM_BASE_URL, PMC_IDCONV_URL, PMC_CLOUD_URL, PMC_OA_URL, PMC_CTXP_URL, ICITE_URL,
ALLOWED_ORIGINS, ALLOWED_HOSTS, MCP_SESSION_SECRET, MCP_SESSION_TTL_SECS, and for
HTTP callers MCP_AUTH_MODE (none, bearer, oauth) with MCP_AUTH_* (see docs/src/authorization.md).";

    pub(crate) fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let command = args.first().map(String::as_str);
        let runtime = || {
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("tokio runtime")
        };
        let result = match command {
            Some("stdio") => native::server().and_then(|(s, steps)| {
                runtime()
                    .block_on(native::stdio::serve(s, steps))
                    .map_err(|e| e.to_string())
            }),
            Some("serve") => {
                let listen = match args.iter().position(|a| a == "--listen") {
                    Some(i) => match args.get(i + 1) {
                        Some(v) => v.clone(),
                        None => return usage_error("--listen needs ADDR:PORT"),
                    },
                    None => "127.0.0.1:8787".to_string(),
                };
                let addr: SocketAddr = match listen.parse() {
                    Ok(a) => a,
                    Err(_) => return usage_error(&format!("cannot parse --listen {listen:?}")),
                };
                native::endpoint(addr.ip().is_loopback()).and_then(|(e, steps)| {
                    runtime()
                        .block_on(native::http::serve(e, addr, steps))
                        .map_err(|e| e.to_string())
                })
            }
            Some("export") => native::export::run(&args[1..]),
            Some("--version") | Some("-V") => {
                println!("entrez-mcp {}", entrez_mcp_core::SERVER_VERSION);
                Ok(())
            }
            Some("--help") | Some("-h") | Some("help") => {
                println!("{}", usage());
                Ok(())
            }
            _ => return usage_error("a command is required"),
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("entrez-mcp: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn usage() -> String {
        USAGE.replace("{export}", native::export::USAGE)
    }

    fn usage_error(message: &str) -> ExitCode {
        eprintln!("entrez-mcp: {message}\n\n{}", usage());
        ExitCode::from(2)
    }
}
