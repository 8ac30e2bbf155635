//! `ncbi-replay`: see [`entrez_mcp_replay::ncbi`].

fn main() -> std::process::ExitCode {
    entrez_mcp_replay::ncbi::main()
}
