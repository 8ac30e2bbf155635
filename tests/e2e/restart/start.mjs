// Starts the restart suite's staging as a task and prints its id (run by scripts/test.sh
// before it kills the server): node tests/e2e/restart/start.mjs URL
import { modern, IDS } from './modern.mjs';

const url = process.argv[2];
const reply = await modern(url, 'tools/call', {
  name: 'entrez_data',
  arguments: { operation: 'fetch_and_stage', database: 'pubmed', ids: IDS },
}, 'entrez_data');
if (reply.result?.resultType !== 'task') {
  console.error(`no task: ${JSON.stringify(reply)}`);
  process.exit(1);
}
console.log(reply.result.taskId);
