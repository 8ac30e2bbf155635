// PubMed XML (efetch db=pubmed retmode=xml) mapped to CSL JSON by the tests themselves, from
// the PubMed DTD's elements and CSL 1.0.2's variables, never through the server: the truth
// the bibliography tests compare the server's CSL JSON and styles with. A small XML reader
// of its own (elements, attributes, text, character references) keeps it apart from the
// server's parser too. No test runs from this file.

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (m, e) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

/** The document's element tree: { name, attrs, children } with strings for text. */
export function parseXml(xml) {
  const root = { name: '#root', attrs: {}, children: [] };
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(re)) {
    const top = stack[stack.length - 1];
    if (m[1] !== undefined) top.children.push(m[1]);
    else if (m[2] !== undefined) {
      if (top.name !== m[2]) throw new Error(`</${m[2]}> closes <${top.name}>`);
      stack.pop();
    } else if (m[3] !== undefined) {
      const attrs = {};
      for (const a of m[4].matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]] = decode(a[2] ?? a[3]);
      const el = { name: m[3], attrs, children: [] };
      top.children.push(el);
      if (!m[5]) stack.push(el);
    } else if (m[6] !== undefined) top.children.push(decode(m[6]));
  }
  return root;
}

const kids = (el, name) => (el ? el.children.filter((c) => typeof c !== 'string' && c.name === name) : []);
const kid = (el, name) => kids(el, name)[0];
const squash = (s) => s.replace(/\s+/g, ' ').trim();

/** An element's text, markup dropped. */
export function textOf(el) {
  if (!el) return '';
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}
const value = (el) => {
  const t = squash(textOf(el));
  return t === '' ? undefined : t;
};

/** An element's text with the inline markup CSL carries kept (<i>, <b>, <sup>, <sub>). */
function marked(el) {
  return el.children
    .map((c) => {
      if (typeof c === 'string') return c;
      const inner = marked(c);
      return ['i', 'b', 'sup', 'sub'].includes(c.name) ? `<${c.name}>${inner}</${c.name}>` : inner;
    })
    .join('');
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const month = (w) => {
  if (/^\d{1,2}$/.test(w)) return Number(w);
  const i = MONTHS.indexOf(w.slice(0, 3).toLowerCase());
  return i < 0 ? undefined : i + 1;
};
const SEASONS = ['spring', 'summer', 'fall', 'autumn', 'winter'];

/** One side of a MedlineDate ("1998 Dec", "Feb", "3"), missing leading parts from `base`. */
function side(words, base) {
  const out = [];
  let i = 0;
  if (/^\d{4}$/.test(words[0])) out.push(Number(words[i++]));
  else out.push(base[0]);
  if (i < words.length && month(words[i]) && !/^\d+$/.test(words[i])) out.push(month(words[i++]));
  else if (words.length === 1 && base.length >= 2 && /^\d+$/.test(words[0])) out.push(base[1]);
  if (i < words.length && /^\d{1,2}$/.test(words[i]) && out.length === 2) out.push(Number(words[i++]));
  return i === words.length ? out : undefined;
}

/** PubDate as CSL's date: Year/Month/Day, a Season, or a MedlineDate ("2019 Jan-Feb"). */
function issued(pubDate) {
  const year = value(kid(pubDate, 'Year'));
  const medline = value(kid(pubDate, 'MedlineDate'));
  if (year) {
    const parts = [Number(year)];
    const m = value(kid(pubDate, 'Month'));
    const d = value(kid(pubDate, 'Day'));
    if (m && month(m)) {
      parts.push(month(m));
      if (d) parts.push(Number(d));
    }
    const date = { 'date-parts': [parts] };
    const season = value(kid(pubDate, 'Season'));
    if (season && parts.length === 1) date.season = season;
    return date;
  }
  if (!medline) return undefined;
  const first = Number(medline.match(/\d{4}/)?.[0]);
  if (!first) return undefined;
  const words = medline.split(' ');
  if (words.length === 2 && words[1].split('-').every((s) => SEASONS.includes(s.toLowerCase()))) {
    return { 'date-parts': [[first]], season: words[1] };
  }
  const [l, r] = medline.split(/-(.*)/s);
  const from = side(l.trim().split(/\s+/), [first]);
  if (!from || from[0] !== first) return { 'date-parts': [[first]] };
  if (r === undefined) return { 'date-parts': [from] };
  const to = side(r.trim().split(/\s+/), from);
  const later = to && to.length === from.length && to.join('.') !== from.join('.') && (to[0] > from[0] || to[1] > from[1] || to[2] > from[2]);
  return later ? { 'date-parts': [from, to] } : { 'date-parts': [[first]] };
}

/** Whether each tag of marked text holds whole pairs of double quotes (CSL's rich text
 * cannot nest `"<i>a"</i>`: citeproc-js prints such tags as text, so the title goes plain). */
function nests(title) {
  const open = [];
  let quotes = 0;
  for (const m of title.matchAll(/<(\/?)(i|b|sup|sub)>|["\u201c\u201d]/g)) {
    if (m[2] === undefined) quotes++;
    else if (!m[1]) open.push(quotes);
    else if ((quotes - open.pop()) % 2 === 1) return false;
  }
  return true;
}

/** An elided end page written out ("1203-10" → "1203-1210", "S12-4" → "S12-S14"). */
function fullRange(range) {
  const [a, b] = range.split('-').map((s) => s.trim());
  if (b === undefined) return a;
  const [, pa, da] = a.match(/^([^\d]*)(\d+)$/) || [];
  const [, pb, db] = b.match(/^([^\d]*)(\d+)$/) || [];
  if (da === undefined || db === undefined || (pb !== '' && pb !== pa)) return `${a}-${b}`;
  const end = db.length < da.length ? da.slice(0, da.length - db.length) + db : db;
  return `${a}-${pa}${end}`;
}

/** Pagination as CSL's page: StartPage-EndPage, else MedlinePgn with its ranges written out. */
function page(pagination) {
  const medline = value(kid(pagination, 'MedlinePgn'));
  const start = value(kid(pagination, 'StartPage'));
  const end = value(kid(pagination, 'EndPage'));
  if (start && end && !(medline || '').includes(',')) return `${start}-${end}`;
  if (medline) return medline.split(',').map((r) => fullRange(r.trim())).join(', ');
  return start;
}

/** A family name's leading lower-case words as CSL's non-dropping particle. */
function family(name, last) {
  const words = last.split(' ');
  let lead = 0;
  while (lead < words.length - 1 && /^\p{Ll}/u.test(words[lead])) lead++;
  if (lead > 0) {
    name['non-dropping-particle'] = words.slice(0, lead).join(' ');
    name.family = words.slice(lead).join(' ');
  } else name.family = last;
}

const LANGUAGES = { eng: 'en', ger: 'de', fre: 'fr', spa: 'es', ita: 'it', jpn: 'ja', chi: 'zh', rus: 'ru', por: 'pt', dut: 'nl' };

/** One PubmedArticle as a CSL JSON item. */
export function item(article) {
  const citation = kid(article, 'MedlineCitation');
  const art = kid(citation, 'Article');
  const journal = kid(art, 'Journal');
  const issue = kid(journal, 'JournalIssue');
  const it = { id: value(kid(citation, 'PMID')), type: 'article-journal' };
  let title = squash(marked(kid(art, 'ArticleTitle')));
  if (!nests(title)) title = squash(textOf(kid(art, 'ArticleTitle')));
  if (title.endsWith('.') && !title.endsWith('..')) title = title.slice(0, -1);
  it.title = title;
  const authors = [];
  for (const list of kids(art, 'AuthorList').filter((l) => l.attrs.Type !== 'editors')) {
    for (const a of kids(list, 'Author').filter((a) => a.attrs.ValidYN !== 'N')) {
      const collective = value(kid(a, 'CollectiveName'));
      const last = value(kid(a, 'LastName'));
      if (last) {
        const n = {};
        family(n, last);
        const given = value(kid(a, 'ForeName')) || value(kid(a, 'Initials'))?.split('').join(' ');
        if (given) n.given = given;
        const suffix = value(kid(a, 'Suffix'));
        if (suffix) n.suffix = suffix;
        authors.push(n);
      } else if (collective) authors.push({ literal: collective });
    }
  }
  if (authors.length) it.author = authors;
  it['container-title'] = value(kid(journal, 'Title'));
  it['container-title-short'] = value(kid(journal, 'ISOAbbreviation')) || value(kid(kid(citation, 'MedlineJournalInfo'), 'MedlineTA'));
  it.issued = issued(kid(issue, 'PubDate'));
  it.volume = value(kid(issue, 'Volume'));
  it.issue = value(kid(issue, 'Issue'));
  it.page = page(kid(art, 'Pagination'));
  const pii = kids(art, 'ELocationID').find((e) => e.attrs.EIdType === 'pii');
  if (!it.page && pii && !/^S\d{4}/.test(value(pii))) it.number = value(pii);
  const ids = kids(kid(kid(article, 'PubmedData'), 'ArticleIdList'), 'ArticleId');
  const id = (type) => value(ids.find((i) => i.attrs.IdType === type));
  it.DOI = id('doi') || value(kids(art, 'ELocationID').find((e) => e.attrs.EIdType === 'doi'));
  it.PMID = it.id;
  it.PMCID = id('pmc');
  it.ISSN = value(kid(journal, 'ISSN'));
  const languages = kids(art, 'Language').map(value);
  if (languages.length === 1) it.language = LANGUAGES[languages[0]] || languages[0];
  for (const k of Object.keys(it)) if (it[k] === undefined) delete it[k];
  return it;
}

/** Every PubmedArticle of a PubmedArticleSet as CSL JSON items, in order. */
export function items(xml) {
  const set = kid(parseXml(xml), 'PubmedArticleSet');
  return kids(set, 'PubmedArticle').map(item);
}

/** The PubmedArticle elements of several PubmedArticleSet files as one set's text. */
export function joinSets(texts) {
  const inner = texts.map((t) => t.slice(t.indexOf('>', t.indexOf('<PubmedArticleSet')) + 1, t.lastIndexOf('</PubmedArticleSet>')));
  return `<?xml version="1.0"?>\n<PubmedArticleSet>${inner.join('\n')}</PubmedArticleSet>\n`;
}

/** What the round-trip readers compare (tests/e2e/python/read_exports.py): title as plain
 * text, authors as [family with its particle, given] or [group name, ""], year, journal,
 * DOI; read from a CSL JSON item of this mapping. */
export function citation(it) {
  return {
    title: it.title.replace(/<\/?(i|b|sup|sub)>/g, ''),
    // CSL JSON carries the title's markup (rich text).
    richTitle: it.title,
    authors: (it.author || []).map((a) =>
      a.literal !== undefined ? [a.literal, ''] : [[a['non-dropping-particle'], a.family].filter(Boolean).join(' '), a.given || ''],
    ),
    year: it.issued ? it.issued['date-parts'][0][0] : null,
    journal: it['container-title'] ?? null,
    doi: it.DOI ?? null,
  };
}

