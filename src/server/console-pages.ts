/**
 * The web console's files (console/index.html, console.css and the bundle console/build/console.js,
 * built by `npm run gen:console`), read once at start and served on the REST port under /console/.
 * docs/console.md describes the console.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedPrecondition } from '../common/errors.js';
import type { StaticPage } from '../api/rest-server.js';

export const console_path = '/console/';

/** The package root: the nearest folder above this file holding package.json (from src/ or dist/src/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw failedPrecondition('the console files are not installed: no package root above the server');
    dir = up;
  }
  return dir;
}

export function consolePages(): Record<string, StaticPage> {
  const dir = join(packageRoot(), 'console');
  const read = (name: string): Buffer => {
    const path = join(dir, name);
    if (!existsSync(path)) throw failedPrecondition(`the console file ${path} is missing; run \`npm run gen:console\` or set console to OFF`);
    return readFileSync(path);
  };
  const html = { content_type: 'text/html; charset=utf-8', body: read('index.html') };
  return {
    [console_path]: html,
    [`${console_path}console.css`]: { content_type: 'text/css; charset=utf-8', body: read('console.css') },
    [`${console_path}console.js`]: { content_type: 'text/javascript; charset=utf-8', body: read('build/console.js') },
  };
}
