# Shared helpers for scripts/*.sh. Source it; do not run it.
# Every ensure_* function is idempotent: it checks first and installs only what is missing.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
# node_modules/.bin first: it holds Node 22 (npm package "node"), wrangler and conformance.
export PATH="$ROOT/node_modules/.bin:$CARGO_BIN:$PATH"

# Keep wrangler and miniflare off Cloudflare's network (it is unreachable here and never needed).
export WRANGLER_SEND_METRICS=false
export WRANGLER_SEND_ERROR_REPORTS=false
export CLOUDFLARE_CF_FETCH_ENABLED=false
export WRANGLER_HIDE_BANNER=true
export DEBIAN_FRONTEND=noninteractive

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The version of a package in Cargo.lock, e.g. `lock_version wasm-bindgen`.
lock_version() {
  awk -v want="name = \"$1\"" '
    $0 == want { getline; if ($1 == "version") { gsub(/"/, "", $3); print $3; exit } }
  ' "$ROOT/Cargo.lock"
}

ensure_rust() {
  command -v cargo >/dev/null || die "cargo not found: install Rust with rustup first"
  if command -v rustup >/dev/null; then
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
      log "rustup target add wasm32-unknown-unknown"
      rustup target add wasm32-unknown-unknown
    fi
    local comp
    for comp in clippy rustfmt; do
      if ! rustup component list --installed | grep -q "^$comp"; then
        log "rustup component add $comp"
        rustup component add "$comp"
      fi
    done
  fi
}

# ensure_cargo_tool CRATE VERSION BIN: `cargo install CRATE --version VERSION` unless BIN reports VERSION.
ensure_cargo_tool() {
  local crate="$1" version="$2" bin="$3"
  if [ -x "$CARGO_BIN/$bin" ] && "$CARGO_BIN/$bin" --version 2>/dev/null | grep -qw -- "$version"; then
    return 0
  fi
  log "cargo install $crate --version $version"
  cargo install "$crate" --version "$version" --force
}

ensure_wasm_tools() {
  ensure_rust
  local bindgen worker
  bindgen="$(lock_version wasm-bindgen)"
  [ -n "$bindgen" ] || die "wasm-bindgen not found in Cargo.lock"
  ensure_cargo_tool wasm-bindgen-cli "$bindgen" wasm-bindgen
  # worker-build is released with the worker crate under the same version.
  worker="$(lock_version worker)"
  [ -n "$worker" ] || die "worker not found in Cargo.lock"
  ensure_cargo_tool worker-build "$worker" worker-build
  ensure_worker_toolchain
}

# The toolchain the Worker bundle is built with: a pinned nightly, because only nightly
# rebuilds the standard library for size (scripts/build-worker.sh says what that buys).
# ENTREZ_WORKER_TOOLCHAIN=stable builds with the default toolchain instead.
WORKER_NIGHTLY="nightly-2026-10-30"
ensure_worker_toolchain() {
  local tc="${ENTREZ_WORKER_TOOLCHAIN:-$WORKER_NIGHTLY}"
  [ "$tc" = stable ] && return 0
  command -v rustup >/dev/null || die "the Worker build needs rustup for $tc (or ENTREZ_WORKER_TOOLCHAIN=stable)"
  if ! rustup component list --toolchain "$tc" --installed 2>/dev/null | grep -q '^rust-src' \
    || ! rustup target list --toolchain "$tc" --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "rustup toolchain install $tc (rust-src and wasm32, for the Worker's size build)"
    rustup toolchain install "$tc" --profile minimal -c rust-src -t wasm32-unknown-unknown \
      || die "could not install $tc"
  fi
}

# The fuzzers (scripts/fuzz.sh): cargo-fuzz at a pinned version, on the pinned nightly above
# (libFuzzer and the sanitizers need nightly; one nightly serves the Worker's build and them).
CARGO_FUZZ_VERSION="0.13.2"
ensure_fuzz_tools() {
  ensure_rust
  if ! rustup toolchain list 2>/dev/null | grep -q "^$WORKER_NIGHTLY"; then
    log "rustup toolchain install $WORKER_NIGHTLY (for the fuzzers)"
    rustup toolchain install "$WORKER_NIGHTLY" --profile minimal || die "could not install $WORKER_NIGHTLY"
  fi
  ensure_cargo_tool cargo-fuzz "$CARGO_FUZZ_VERSION" cargo-fuzz
}

_apt_updated=""
# The Worker's compiler settings (scripts/build-worker.sh explains each), exported for a
# cargo build of the wasm: the Worker itself, or the CPU benchmark built exactly as it is.
# ENTREZ_WASM_SIMD=0 leaves simd128 out (the benchmark measures both).
worker_rust_env() {
  WORKER_TOOLCHAIN="${ENTREZ_WORKER_TOOLCHAIN:-$WORKER_NIGHTLY}"
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/worker}"
  if [ "$WORKER_TOOLCHAIN" != stable ]; then
    export RUSTUP_TOOLCHAIN="$WORKER_TOOLCHAIN"
    export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
    export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
    export RUSTFLAGS="${RUSTFLAGS:-} -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=shallow"
  fi
  # getrandom's bytes from entrez-mcp-random (worker/random): Web Crypto in requests, and a
  # source that works at global scope while the module starts (the rehearsal's hash seeds).
  export RUSTFLAGS="${RUSTFLAGS:-} --cfg getrandom_backend=\"custom\""
  if [ "${ENTREZ_WASM_SIMD:-1}" != 0 ]; then
    export RUSTFLAGS="${RUSTFLAGS:-} -Ctarget-feature=+simd128"
  fi
  export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-z}"
  # Function names must reach wasm-opt, which orders functions by them
  # (--reorder-functions-by-name) and drops the name section from its output unless told to
  # keep it (ENTREZ_WASM_NAMES=1). Without that pass the names are stripped here instead.
  if [ "${ENTREZ_WASM_NAMES:-0}" != 1 ] && [ "${ENTREZ_WASM_OPT:-1}" = 0 ]; then
    export CARGO_PROFILE_RELEASE_STRIP=symbols
  else
    export CARGO_PROFILE_RELEASE_STRIP=debuginfo
  fi
  export SQLITE_WASM_RS_FLAGS="${SQLITE_WASM_RS_FLAGS:-\
-USQLITE_ENABLE_FTS5 -USQLITE_ENABLE_RTREE -USQLITE_ENABLE_SESSION -USQLITE_ENABLE_PREUPDATE_HOOK \
-USQLITE_ENABLE_DBSTAT_VTAB -USQLITE_ENABLE_DBPAGE_VTAB -USQLITE_ENABLE_BYTECODE_VTAB \
-USQLITE_ENABLE_STMTVTAB -USQLITE_ENABLE_UNLOCK_NOTIFY -USQLITE_ENABLE_COLUMN_METADATA \
-DSQLITE_OMIT_UTF16 -DSQLITE_OMIT_COMPLETE -DSQLITE_OMIT_GET_TABLE -DSQLITE_OMIT_INCRBLOB \
-DSQLITE_OMIT_SHARED_CACHE -DSQLITE_OMIT_WAL -DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_OMIT_TRACE \
-DSQLITE_OMIT_DEPRECATED -DSQLITE_OMIT_DECLTYPE -DSQLITE_DEFAULT_MEMSTATUS=0 \
-DSQLITE_OMIT_DESERIALIZE -DSQLITE_UNTESTABLE -DSQLITE_OMIT_AUTOMATIC_INDEX -DSQLITE_OMIT_XFER_OPT \
-DSQLITE_OMIT_BTREECOUNT -DSQLITE_OMIT_QUICKBALANCE -DSQLITE_OMIT_LIKE_OPTIMIZATION \
-DSQLITE_OMIT_OR_OPTIMIZATION -DSQLITE_OMIT_BETWEEN_OPTIMIZATION -DSQLITE_OMIT_TRUNCATE_OPTIMIZATION}"
}

# The Worker's parser opt-level, given to cargo by every Worker build (build-worker.sh, the CPU
# benchmark): the parser is the hottest code on the Worker, whose build is otherwise at z for
# size. At 2 it parses PubMed about 2x faster than at z; 3 measured no faster than 2 (one
# run, taking turns: parse 1.00x, whole batch 1.00x) for 6.5 KB more of the gzipped module
# (docs/src/workers-plans.md, "CPU per request").
WORKER_PARSE_CONFIG=(--config "profile.release.package.entrez-mcp-parse.opt-level=${ENTREZ_PARSE_OPT:-2}")

# binaryen's wasm-opt pass over a built module, in place (ENTREZ_WASM_OPT=0 skips it).
worker_wasm_opt() {
  local wasm="$1"
  [ "${ENTREZ_WASM_OPT:-1}" != 0 ] || return 0
  local wasm_opt="$ROOT/node_modules/.bin/wasm-opt"
  [ -x "$wasm_opt" ] || ensure_node_modules
  local keep=()
  [ "${ENTREZ_WASM_NAMES:-0}" = 1 ] && keep=(-g)
  # The features the Rust target and wasm-bindgen emit, and nothing beyond them.
  local features=(--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong
    --enable-multivalue --enable-mutable-globals --enable-nontrapping-float-to-int
    --enable-reference-types --enable-sign-ext --enable-simd --enable-exception-handling)
  # Code folding merges identical tails of branches (10 KB raw, 0.3 KB gzipped); dead-argument
  # elimination drops parameters no caller needs (2.9 KB gzipped); the producers and
  # target-features sections are read by nothing at run time (0.3 KB). After them, redundant
  # stores to locals go (rse), constants propagate through locals (precompute-propagate) and
  # the blocks left over merge and empty code goes (merge-blocks, vacuum): 3.8 KB gzipped,
  # where each alone gains little or nothing. Then -O1 once more, over what those passes
  # left: 5.4-6.5 KB gzipped (a third -O1, or these passes again, gain nothing more). Names are
  # kept for the second pass, which orders functions by them.
  "$wasm_opt" "${features[@]}" -O1 --duplicate-function-elimination --code-folding \
    --dae-optimizing --rse --precompute-propagate --merge-blocks --vacuum -O1 \
    --strip-producers --strip-target-features -g "$wasm" -o "$wasm.opt"
  # Functions ordered by name: a crate's functions, and a generic's copies, end up side by
  # side, inside gzip's 32 KB window (89 KB smaller gzipped, the same raw size). The names
  # are first prefixed with each function's crate and first code bytes
  # (scripts/wasm-order-names.mjs), so functions that begin alike sit together: 10 KB
  # smaller gzipped than the names alone.
  node "$ROOT/scripts/wasm-order-names.mjs" key "$wasm.opt"
  "$wasm_opt" "${features[@]}" --reorder-functions-by-name "${keep[@]}" "$wasm.opt" -o "$wasm"
  rm -f "$wasm.opt"
  [ "${#keep[@]}" -eq 0 ] || node "$ROOT/scripts/wasm-order-names.mjs" unkey "$wasm"
}

apt_install() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      warn "cannot install $* (not root, no sudo); install them by hand"
      return 1
    fi
  fi
  if [ -z "$_apt_updated" ]; then
    log "apt-get update"
    $sudo apt-get update -qq
    _apt_updated=1
  fi
  log "apt-get install $*"
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_apt_packages() {
  local needed=() optional=()
  command -v gzip >/dev/null || needed+=(gzip)
  command -v curl >/dev/null || needed+=(curl)
  command -v npm >/dev/null || needed+=(nodejs npm)
  # A C compiler for SQLite and mimalloc natively, and clang for SQLite compiled to
  # wasm32 inside the Worker (sqlite-wasm-rs; gcc cannot target wasm32).
  command -v cc >/dev/null || needed+=(gcc libc6-dev)
  command -v clang >/dev/null || needed+=(clang)
  # The official Python MCP client runs in the E2E suites from a venv.
  command -v python3 >/dev/null || needed+=(python3)
  python3 -m venv --help >/dev/null 2>&1 || needed+=(python3-venv)
  if [ "${#needed[@]}" -gt 0 ]; then
    apt_install "${needed[@]}" "${optional[@]}" || die "could not install ${needed[*]}"
  elif [ "${#optional[@]}" -gt 0 ]; then
    apt_install "${optional[@]}" || warn "continuing without ${optional[*]}"
  fi
}

# node_modules from package-lock.json, reinstalled only when the lock file changes.
ensure_node_modules() {
  local stamp="$ROOT/node_modules/.entrez-mcp-setup" want
  want="$(cat "$ROOT/package.json" "$ROOT/package-lock.json" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] \
    && [ -x "$ROOT/node_modules/.bin/node" ] && [ -x "$ROOT/node_modules/.bin/wrangler" ]; then
    return 0
  fi
  log "npm install from package-lock.json (wrangler, @modelcontextprotocol/sdk, conformance, Node 22)"
  # Not `npm ci`: the lock file lists only the platform packages (workerd, esbuild) that the
  # registry served when it was written, and `npm ci` rejects that as out of sync.
  # `--no-save` installs the locked versions and leaves package-lock.json untouched.
  (cd "$ROOT" && npm install --no-save --no-audit --no-fund --loglevel=error)
  "$ROOT/node_modules/.bin/node" --version | grep -q '^v22\.' \
    || die "node_modules/.bin/node is not Node 22"
  echo "$want" >"$stamp"
}

# The official Python MCP client (tests/e2e/python/requirements.txt) in a venv under target/,
# reinstalled only when the requirements change.
PY_CLIENT_VENV="$ROOT/target/e2e-python"
ensure_python_client() {
  local stamp="$PY_CLIENT_VENV/.entrez-mcp-setup" want
  want="$(sha256sum "$ROOT/tests/e2e/python/requirements.txt" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$PY_CLIENT_VENV/bin/python" ]; then
    return 0
  fi
  log "python venv with $(tr '\n' ' ' <"$ROOT/tests/e2e/python/requirements.txt")"
  rm -rf "$PY_CLIENT_VENV"
  python3 -m venv "$PY_CLIENT_VENV" || die "python3 -m venv failed"
  "$PY_CLIENT_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/tests/e2e/python/requirements.txt" \
    || die "pip install of the Python MCP client failed"
  echo "$want" >"$stamp"
}

# The book's tools (scripts/docs.sh): mdBook from crates.io, built without its `serve` and
# `watch` commands (no tokio, axum or notify: about 5 minutes on two cores instead of 7), kept
# in cargo's bin directory like the other cargo-installed tools.
MDBOOK_VERSION="0.5.4"
ensure_mdbook() {
  if [ -x "$CARGO_BIN/mdbook" ] && "$CARGO_BIN/mdbook" --version 2>/dev/null | grep -qw -- "v$MDBOOK_VERSION"; then
    return 0
  fi
  ensure_rust
  log "cargo install mdbook --version $MDBOOK_VERSION (no serve/watch)"
  cargo install mdbook --version "$MDBOOK_VERSION" --locked --no-default-features --features search --force
}

# The book's link checker (scripts/docs.sh): linkinator from npm, a maintained checker that
# also checks #fragments, under target/ apart from node_modules and package-lock.json. It
# runs on the Node 22 of node_modules/.bin (it needs 22 or later).
LINKINATOR_VERSION="8.1.0"
DOCS_TOOLS="$ROOT/target/docs-tools"
ensure_linkinator() {
  if [ -x "$DOCS_TOOLS/node_modules/.bin/linkinator" ] \
    && grep -q "\"version\": \"$LINKINATOR_VERSION\"" "$DOCS_TOOLS/node_modules/linkinator/package.json" 2>/dev/null; then
    return 0
  fi
  ensure_node_modules
  log "npm install linkinator@$LINKINATOR_VERSION (under target/docs-tools)"
  mkdir -p "$DOCS_TOOLS"
  npm install --prefix "$DOCS_TOOLS" --no-save --no-audit --no-fund --loglevel=error "linkinator@$LINKINATOR_VERSION"
}

# The install channels' checks (tests/install/check.sh): check-jsonschema and hadolint (a
# static binary in its PyPI wheel) in a venv under target/, and the MCP Bundle CLI
# (@anthropic-ai/mcpb, which ships the bundle manifest's JSON schemas) from npm under
# target/, apart from node_modules and package-lock.json.
INSTALL_TOOLS="$ROOT/target/install-tools"
MCPB_VERSION="2.1.2"
ensure_install_tools() {
  local stamp="$INSTALL_TOOLS/.entrez-mcp-setup" want
  want="$( (cat "$ROOT/tests/install/requirements.txt"; echo "mcpb $MCPB_VERSION") | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  log "install-channel tools: $(tr '\n' ' ' <"$ROOT/tests/install/requirements.txt")and @anthropic-ai/mcpb@$MCPB_VERSION"
  rm -rf "$INSTALL_TOOLS"
  mkdir -p "$INSTALL_TOOLS"
  python3 -m venv "$INSTALL_TOOLS/venv" || die "python3 -m venv failed"
  "$INSTALL_TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/tests/install/requirements.txt" \
    || die "pip install of the install-channel tools failed"
  npm install --prefix "$INSTALL_TOOLS/npm" --no-save --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/mcpb@$MCPB_VERSION" || die "npm install of @anthropic-ai/mcpb failed"
  echo "$want" >"$stamp"
}

# The native esbuild binary that wrangler brought, so worker-build does not download one.
esbuild_bin() {
  local b
  for b in "$ROOT"/node_modules/@esbuild/*/bin/esbuild "$ROOT/node_modules/esbuild/bin/esbuild"; do
    if [ -x "$b" ]; then echo "$b"; return 0; fi
  done
  return 1
}

# A free TCP port on 127.0.0.1.
free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Chromium for the MCP Apps view's browser test (tests/e2e/view.test.mjs, puppeteer-core
# drives it): Debian's package, installed when `chromium` is missing. Prints its path;
# returns non-zero when it cannot be had.
ensure_chromium() {
  local bin
  if ! bin="$(command -v chromium)"; then
    apt_install chromium || { warn "could not install chromium (the view's browser test needs it)"; return 1; }
    bin="$(command -v chromium)" || { warn "chromium is still not on PATH after apt-get install"; return 1; }
  fi
  echo "$bin"
}

# The MCP Apps view: view/ bundled into view/dist/view.html (`build_view --check` only compares).
build_view() {
  node "$ROOT/view/build.mjs" "$@"
}

# view_is_current: view/ copied to a temporary folder (under target/, so that node_modules
# resolves) and built there, its page compared byte for byte with the checked-in
# view/dist/view.html; nothing is written in place.
view_is_current() {
  local dir rc
  mkdir -p "$ROOT/target"
  dir="$(mktemp -d "$ROOT/target/view-check.XXXXXX")" || return 1
  cp -r "$ROOT/view/." "$dir/" && rm -rf "$dir/dist" && node "$dir/build.mjs" >/dev/null
  rc=$?
  if [ "$rc" -eq 0 ] && ! cmp "$dir/dist/view.html" "$ROOT/view/dist/view.html"; then
    warn "view/dist/view.html is not what view/ builds: run bash scripts/build-view.sh and commit it"
    rc=1
  fi
  rm -rf "$dir"
  [ "$rc" -eq 0 ] && echo "view/dist/view.html is what view/ builds (built apart in a temporary folder)"
  return "$rc"
}

# The repository's own files, NUL-separated: git's list where there is a checkout, else every
# file but those .gitignore names (builds, installs, the fuzzers' output, the built book).
repo_files() {
  if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$ROOT" ls-files -z
  else
    (cd "$ROOT" && find . \( -path ./target -o -path ./build -o -path ./worker/build -o -path ./node_modules \
      -o -path ./.wrangler -o -path ./fuzz/target -o -path ./fuzz/corpus -o -path ./fuzz/artifacts \
      -o -path ./fuzz/coverage -o -path ./docs/book -o -name .git \) -prune -o -type f ! -name '*.log' \
      ! -name .dev.vars -print0 | sed -z 's|^\./||')
  fi
}

# repo_digest: one `sha256sum` line per file of the repository, sorted (a file gone shows as gone).
repo_digest() {
  (cd "$ROOT" && repo_files | sort -z | xargs -0 -r sha256sum 2>&1)
}

# start_job OUT COMMAND...: COMMAND at the lowest priority in a session of its own, in the
# background, its output in OUT; sets JOB_PID to a process whose exit status is COMMAND's
# however this shell was started: under job control a background job leads its own process
# group, so setsid must fork, and without -w it would exit 0 at once while COMMAND runs on.
# PIDS gets both, for scripts/servers.sh to stop on exit (the session by its leader's pid,
# which the job writes to OUT.session first).
start_job() {
  local out="$1"
  shift
  setsid -w bash -c 'echo $$ >"$0.session"; exec nice -n 19 "$@"' "$out" "$@" </dev/null >"$out" 2>&1 &
  JOB_PID=$!
  PIDS+=("$JOB_PID")
  for _ in $(seq 1 50); do [ -s "$out.session" ] && break; sleep 0.1; done
  [ -s "$out.session" ] && PIDS+=("$(cat "$out.session")")
}
