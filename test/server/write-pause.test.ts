import { describe, expect, it } from 'vitest';
import { WritePause } from '../../src/server/version/write-pause.js';

describe('the write pause as a member sees it', () => {
  it('counts from start until a writing leader is seen, then from losing it until one is seen again', () => {
    let now = 1000;
    const pause = new WritePause(() => now);
    now = 1300;
    expect(pause.current_ms).toBe(300);
    pause.observe(true);
    expect([pause.current_ms, pause.ended, pause.last_ms]).toEqual([undefined, 1, 300]);
    now = 2000;
    pause.observe(true);
    pause.observe(false);
    now = 4500;
    pause.observe(false);
    expect(pause.current_ms).toBe(2500);
    pause.observe(true);
    expect([pause.current_ms, pause.ended, pause.last_ms]).toEqual([undefined, 2, 2500]);
  });
});
