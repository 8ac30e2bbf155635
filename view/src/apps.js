// The view's side of MCP Apps (io.modelcontextprotocol/ui, spec 2026-01-26): JSON-RPC 2.0
// over postMessage with the host window, written from the specification for what this view
// uses, in place of the SDK's App (which brings zod and the MCP client, about 600 KB):
// ui/initialize and ui/notifications/initialized, the tool's input, result and cancellation,
// host context changes, ui/resource-teardown, size changes, tools/call and ui/download-file.

/** The MCP Apps revision this view speaks. */
export const PROTOCOL_VERSION = '2026-01-26';

/** A JSON-RPC error answered by the host, as an Error with its code. */
class HostError extends Error {
  constructor(error) {
    super(error && typeof error.message === 'string' ? error.message : 'the host refused the request');
    this.code = error && error.code;
  }
}

export class App {
  /**
   * appInfo: {name, version}; capabilities: the view's appCapabilities;
   * autoResize: tell the host the page's size whenever it changes.
   */
  constructor(appInfo, capabilities = {}, { autoResize = true } = {}) {
    this.appInfo = appInfo;
    this.capabilities = capabilities;
    this.autoResize = autoResize;
    this.host = null;
    this.nextId = 1;
    this.pending = new Map();
    this.hostCapabilities = undefined;
    this.hostContext = undefined;
    this.hostInfo = undefined;
    // Set by the view: each gets the notification's params.
    this.ontoolinput = null;
    this.ontoolresult = null;
    this.ontoolcancelled = null;
    this.onhostcontextchanged = null;
    this.onteardown = null;
  }

  getHostCapabilities() {
    return this.hostCapabilities;
  }

  getHostContext() {
    return this.hostContext;
  }

  /** Listens to `host` (the parent window), initializes, and says so. */
  async connect(host = window.parent) {
    if (this.host) throw new Error('already connected');
    this.host = host;
    window.addEventListener('message', (event) => {
      if (event.source === host) this.receive(event.data);
    });
    const result = await this.request('ui/initialize', {
      appInfo: this.appInfo,
      appCapabilities: this.capabilities,
      protocolVersion: PROTOCOL_VERSION,
    });
    if (!result || typeof result !== 'object') throw new Error('the host answered ui/initialize with nothing');
    this.hostCapabilities = result.hostCapabilities || {};
    this.hostContext = result.hostContext || {};
    this.hostInfo = result.hostInfo;
    this.notify('ui/notifications/initialized', {});
    if (this.autoResize) this.watchSize();
  }

  /** tools/call through the host; resolves to the CallToolResult. */
  callServerTool(params) {
    return this.request('tools/call', params);
  }

  /** ui/download-file: {contents: [EmbeddedResource…]}; resolves to {isError?}. */
  downloadFile(params) {
    return this.request('ui/download-file', params);
  }

  send(message) {
    this.host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  }

  notify(method, params) {
    this.send({ method, params });
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ id, method, params });
    });
  }

  /** One message from the host: a response, a request or a notification. */
  receive(message) {
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
    if (typeof message.method !== 'string') {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new HostError(message.error));
      else waiting.resolve(message.result);
    } else if (message.id !== undefined && message.id !== null) {
      this.answer(message);
    } else {
      this.notified(message.method, message.params || {});
    }
  }

  notified(method, params) {
    switch (method) {
      case 'ui/notifications/tool-input':
        if (this.ontoolinput) this.ontoolinput(params);
        break;
      case 'ui/notifications/tool-result':
        if (this.ontoolresult) this.ontoolresult(params);
        break;
      case 'ui/notifications/tool-cancelled':
        if (this.ontoolcancelled) this.ontoolcancelled(params);
        break;
      case 'ui/notifications/host-context-changed':
        // The params are the fields that changed.
        this.hostContext = { ...this.hostContext, ...params };
        if (this.onhostcontextchanged) this.onhostcontextchanged(params);
        break;
      default:
      // Partial input, list changes and the rest: nothing this view shows.
    }
  }

  /** The host's requests: teardown and ping; anything else is not a method here. */
  async answer({ id, method, params }) {
    try {
      let result;
      if (method === 'ui/resource-teardown') result = this.onteardown ? await this.onteardown(params || {}) : {};
      else if (method === 'ping') result = {};
      else {
        this.send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
        return;
      }
      this.send({ id, result: result || {} });
    } catch (e) {
      this.send({ id, error: { code: -32603, message: e && e.message ? e.message : String(e) } });
    }
  }

  /**
   * ui/notifications/size-changed with the page's width and its content's height, once now
   * and once per animation frame in which the document or body changed size.
   */
  watchSize() {
    let queued = false;
    let last = '';
    const measure = () => {
      queued = false;
      const page = document.documentElement;
      const kept = page.style.height;
      page.style.height = 'max-content';
      const height = Math.ceil(page.getBoundingClientRect().height);
      page.style.height = kept;
      const width = Math.ceil(window.innerWidth);
      if (`${width}x${height}` === last) return;
      last = `${width}x${height}`;
      this.notify('ui/notifications/size-changed', { width, height });
    };
    const queue = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(measure);
    };
    queue();
    const observer = new ResizeObserver(queue);
    observer.observe(document.documentElement);
    observer.observe(document.body);
  }
}

/** The host's theme on the page: `data-theme` for the style sheet, and native controls. */
export function applyDocumentTheme(theme) {
  const page = document.documentElement;
  page.setAttribute('data-theme', theme);
  page.style.colorScheme = theme;
}

/** The host's style variables (`--color-…`, `--font-…`) as custom properties of the page. */
export function applyHostStyleVariables(variables, element = document.documentElement) {
  for (const [name, value] of Object.entries(variables)) {
    if (value !== undefined && value !== null) element.style.setProperty(name, String(value));
  }
}
