//! `external-replay`: see [`entrez_mcp_replay::external`].

fn main() -> std::process::ExitCode {
    entrez_mcp_replay::external::main()
}
