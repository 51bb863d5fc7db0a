// Preloaded into a server process by tests (`node --import`): once a checkpoint's temporary file is
// written and fsynced, the process says so on stderr and pauses before renaming it into place, so a
// test can kill it exactly inside the checkpoint's write. Nothing else changes.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

export const checkpoint_pause_ms = 30_000;
const rename = fs.renameSync;
fs.renameSync = (from, to) => {
  if (String(from).endsWith('.ckpt.tmp')) {
    process.stderr.write('checkpoint written, pausing before its rename\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, checkpoint_pause_ms);
  }
  return rename(from, to);
};
syncBuiltinESMExports();
