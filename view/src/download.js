// Saving a file: through the host when it offers ui/download-file (a sandboxed view cannot
// download by itself), else with an <a download> link to a data: URL.

import { h } from './dom.js';

function base64OfText(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Saves {name, mimeType} with either `text` or `base64` content.
 * Returns 'host', 'link' or 'refused' (the host said no).
 */
export async function saveFile(app, { name, mimeType, text, base64 }) {
  const data = base64 ?? base64OfText(text ?? '');
  if (app && app.getHostCapabilities && app.getHostCapabilities()?.downloadFile) {
    const resource = { uri: `file:///${encodeURIComponent(name)}`, mimeType };
    if (text !== undefined) resource.text = text;
    else resource.blob = data;
    const result = await app.downloadFile({ contents: [{ type: 'resource', resource }] });
    return result && result.isError ? 'refused' : 'host';
  }
  const link = h('a', { href: `data:${mimeType};base64,${data}`, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  return 'link';
}
