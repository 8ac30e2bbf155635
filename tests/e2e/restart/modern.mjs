// 2026-07-28 requests for the restart suite: declaring the tasks extension, under one caller
// key (which owns the dataset, from before the restart and after it).

import { TASKS_EXTENSION, postModern } from '../helpers.mjs';

export const CALLER_KEY = 'e2e-restart-caller-key';

export async function modern(url, method, params, name) {
  const reply = await postModern(url, method, params, {
    capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    name,
    headers: { 'X-NCBI-API-Key': CALLER_KEY },
  });
  return reply.json;
}

/** The PMIDs the suite stages: a range of the replay's synthetic ones, its own. */
export const IDS = Array.from({ length: 1000 }, (_, i) => String(90_040_001 + i));
