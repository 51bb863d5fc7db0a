// Generated code must be reproducible: regenerate everything and fail on any difference.
import { execSync } from 'node:child_process';

const generated = ['src/gen', 'src/query/grammar/gen', 'console/build'];
execSync('npm run --silent gen', { stdio: 'inherit' });
execSync('npm run --silent gen:console', { stdio: 'inherit' });
const diff = execSync(`git status --porcelain -- ${generated.join(' ')}`, { encoding: 'utf8' }).trim();
if (diff !== '') {
  console.error('generated code differs from what is committed; run `npm run gen` and commit:\n' + diff);
  process.exit(1);
}
console.log('gen: generated code is up to date');
