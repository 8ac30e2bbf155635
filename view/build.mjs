// Builds view/dist/view.html: view/index.html with the bundled, minified script and style
// inline, so the page needs nothing from the network (the MCP Apps default CSP allows inline
// script and style only). Deterministic: the same sources give the same bytes.
//
//   node view/build.mjs           writes view/dist/view.html and prints its size
//   node view/build.mjs --check   fails when view/dist/view.html is not what the sources build

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const VIEW = dirname(fileURLToPath(import.meta.url));
export const DIST = join(VIEW, 'dist', 'view.html');

/** The whole page as a string. */
export async function buildView() {
  const [template, css] = await Promise.all([
    readFile(join(VIEW, 'index.html'), 'utf8'),
    readFile(join(VIEW, 'src', 'style.css'), 'utf8'),
  ]);
  const bundle = await esbuild.build({
    absWorkingDir: VIEW,
    entryPoints: ['src/main.js'],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    charset: 'utf8',
    legalComments: 'eof',
    sourcemap: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const script = bundle.outputFiles[0].text.trim();
  const style = (await esbuild.transform(css, { loader: 'css', minify: true, target: ['chrome110', 'firefox110', 'safari16'] })).code.trim();

  // What would end the inline element early, or start a comment inside a script.
  if (/<\/script|<!--/i.test(script)) throw new Error('the bundled script contains "</script" or "<!--"');
  if (/<\/style/i.test(style)) throw new Error('the style contains "</style"');
  // The default CSP has no 'unsafe-eval'.
  if (/\beval\(|new Function\(/.test(script)) console.warn('warning: the bundle mentions eval( or new Function(');

  const parts = template.split('/*STYLE*/');
  if (parts.length !== 2) throw new Error('index.html needs exactly one /*STYLE*/');
  const withStyle = parts.join(style);
  const halves = withStyle.split('/*SCRIPT*/');
  if (halves.length !== 2) throw new Error('index.html needs exactly one /*SCRIPT*/');
  return halves.join(script);
}

async function main() {
  const html = await buildView();
  if (process.argv.includes('--check')) {
    const current = await readFile(DIST, 'utf8').catch(() => '');
    if (current !== html) {
      console.error(`${DIST} is not what view/ builds: run scripts/build-view.sh and commit it`);
      process.exit(1);
    }
    console.log(`${DIST} is up to date`);
    return;
  }
  await mkdir(dirname(DIST), { recursive: true });
  await writeFile(DIST, html);
  const bytes = Buffer.byteLength(html);
  console.log(`${DIST}: ${bytes} bytes, ${gzipSync(html, { level: 9 }).length} gzipped`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(e && e.stack ? e.stack : e);
    process.exit(1);
  });
}
