// A minimal MCP Apps host for tests/e2e/view.test.mjs, bundled for the browser by the test
// (esbuild, in memory). It puts a view's HTML into a sandboxed iframe under the spec's
// default CSP, talks to it with AppBridge over postMessage, and forwards the view's
// tools/call to Node (window.nodeCallTool, from page.exposeFunction), refusing tools that
// are not callable from an app.

import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

// The MCP Apps default CSP (spec 2026-01-26, "Host Behavior").
export const DEFAULT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
].join('; ');

// First in the view's <head>: the CSP, and a reporter that turns each violation into a
// console error (the test fails on those).
const PROLOGUE =
  `<meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">` +
  '<script>document.addEventListener("securitypolicyviolation",function(e){' +
  'console.error("CSP violation: "+e.violatedDirective+" "+(e.blockedURI||"")+" "+(e.sample||""))});</script>';

function withCsp(html) {
  const at = html.search(/<head[^>]*>/i);
  if (at < 0) throw new Error('the view has no <head>');
  const end = html.indexOf('>', at) + 1;
  return html.slice(0, end) + PROLOGUE + html.slice(end);
}

const log = {
  calls: [], // every tools/call the view made: {name, arguments}
  refused: [], // the names refused
  downloads: [], // ui/download-file params
  sizes: [], // ui/notifications/size-changed params
  logs: [], // notifications/message params
};

let current = null;

/**
 * Shows `html` with a tool call's input and result.
 * options: {html, input, result, appTools (names the view may call), theme, downloadFile (bool), width}
 * Resolves once the view has initialized and been sent both notifications.
 */
async function show({ html, input = {}, result, appTools = [], theme = 'light', downloadFile = true, width = 760 }) {
  if (current) {
    await current.bridge.close().catch(() => {});
    current.iframe.remove();
    current = null;
  }
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('title', 'entrez-mcp view');
  iframe.style.cssText = `width:${width}px;height:400px;border:1px solid #ccc;display:block`;
  document.getElementById('host').append(iframe);

  const capabilities = { serverTools: {}, logging: {} };
  if (downloadFile) capabilities.downloadFile = {};
  const bridge = new AppBridge(null, { name: 'entrez-mcp-e2e-host', version: '1.0.0' }, capabilities, {
    hostContext: { theme, displayMode: 'inline', platform: 'web', locale: 'en-US', containerDimensions: { width, maxHeight: 2000 } },
  });
  bridge.oncalltool = async (params) => {
    log.calls.push({ name: params.name, arguments: params.arguments });
    if (!appTools.includes(params.name)) {
      log.refused.push(params.name);
      throw new Error(`the host refuses tools/call of ${params.name}: its visibility does not include "app"`);
    }
    return window.nodeCallTool(params);
  };
  bridge.ondownloadfile = async (params) => {
    log.downloads.push(params);
    return {};
  };
  bridge.onsizechange = (params) => {
    log.sizes.push(params);
    if (typeof params.height === 'number') iframe.style.height = `${Math.ceil(params.height) + 2}px`;
  };
  bridge.onloggingmessage = (params) => log.logs.push(params);
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the view did not initialize within 15 s')), 15000);
    bridge.oninitialized = () => {
      clearTimeout(timer);
      Promise.resolve()
        .then(() => bridge.sendToolInput({ arguments: input }))
        .then(() => bridge.sendToolResult(result))
        .then(resolve, reject);
    };
  });
  current = { iframe, bridge };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = withCsp(html);
  await ready;
}

window.viewHost = { show, log, DEFAULT_CSP };
