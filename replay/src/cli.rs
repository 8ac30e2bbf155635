//! The command line and start-up both replay servers share.
//!
//! Each server takes `--listen HOST:PORT`, `--log-requests`, `--help` and its
//! own positive rate limits (`--flag N` or `--flag=N`), and runs on a tokio
//! runtime until it fails.

use std::future::Future;
use std::net::SocketAddr;
use std::process::ExitCode;

/// A replay server's options, as the shared command line fills them.
pub trait Options: Sized {
    /// The rate-limit flags this server takes, e.g. `--limit`.
    const LIMIT_FLAGS: &'static [&'static str];
    /// The address to bind and whether to log one line per request, the two
    /// options every server has.
    fn common(&mut self) -> (&mut SocketAddr, &mut bool);
    /// Sets the limit named by one of [`Options::LIMIT_FLAGS`].
    fn set_limit(&mut self, flag: &str, per_second: usize);
}

/// Reads the command line over `defaults`; `Ok(None)` means help was asked for.
pub fn parse<O: Options>(
    mut options: O,
    args: impl Iterator<Item = String>,
) -> Result<Option<O>, String> {
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--listen" => {
                let v = value()?;
                let addr = v
                    .parse()
                    .map_err(|_| format!("--listen wants HOST:PORT, got {v:?}"))?;
                *options.common().0 = addr;
            }
            "--log-requests" => *options.common().1 = true,
            "-h" | "--help" => return Ok(None),
            f if O::LIMIT_FLAGS.contains(&f) => {
                let n = positive(&value()?, f)?;
                options.set_limit(f, n);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some(options))
}

fn positive(v: &str, name: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{name} wants a positive number, got {v:?}")),
    }
}

/// Parses the command line, then runs `serve` on a tokio runtime; the process exit code.
pub fn main<O, F, Fut>(name: &str, usage: &str, defaults: O, serve: F) -> ExitCode
where
    O: Options,
    F: FnOnce(O) -> Fut,
    Fut: Future<Output = std::io::Result<()>>,
{
    let options = match parse(defaults, std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{usage}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{name}: {message}\n{usage}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{name}: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}
