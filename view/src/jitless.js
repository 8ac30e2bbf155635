// Imported first: zod (under the SDK) probes `new Function("")` the first time it parses an
// object unless `jitless` is set, and under the MCP Apps default CSP (no 'unsafe-eval') that
// probe is a reported CSP violation. App's constructor sets jitless, but only after its own
// parent constructor has parsed with zod; setting it here, before any SDK module runs, keeps
// the view free of violations.
import { config } from 'zod/v4';

config({ jitless: true });
