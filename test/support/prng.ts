/** A small seeded PRNG (splitmix32) for tests that must replay: the seed is printed, and passing it back replays. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

/** The seed of a randomized test: WEFT_SEED from the environment, or a fresh one, printed either way. */
export function testSeed(name: string): number {
  const fromEnv = process.env['WEFT_SEED'];
  const seed = fromEnv !== undefined ? Number(fromEnv) : Math.floor(Math.random() * 2 ** 31);
  console.log(`${name}: seed ${seed} (replay with WEFT_SEED=${seed})`);
  return seed;
}
