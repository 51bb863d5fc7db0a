import { describe, expect, it } from 'vitest';
import { majorityPair, type VoterVersion } from '../../../src/log/version/majority-pair.js';
import { versionRefusal, versionVerdict } from '../../../src/log/version/handshake.js';
import { newerGroupVersion } from '../../../src/log/version/version-pair.js';

const v1 = { engine: 1, host_epoch: 0 };
const v2 = { engine: 2, host_epoch: 0 };
const voter = (node_id: number, pair: typeof v1 | undefined, live = true): VoterVersion => ({ node_id, pair, live });

describe('majority_pair (SPEC 9.8)', () => {
  it('three voters at one pair: that pair', () => {
    expect(majorityPair([voter(1, v1), voter(2, v1), voter(3, v1)])).toEqual(v1);
  });

  it('one of three updated: the old pair still holds the majority', () => {
    expect(majorityPair([voter(1, v1), voter(2, v2), voter(3, v1)])).toEqual(v1);
  });

  it('the update that completes the new majority moves it', () => {
    expect(majorityPair([voter(1, v1), voter(2, v2), voter(3, v2)])).toEqual(v2);
  });

  it('a voter that is not live does not count, so two of three live at two pairs give none', () => {
    expect(majorityPair([voter(1, v1), voter(2, v2), voter(3, v2, false)])).toBeUndefined();
  });

  it('a voter whose pair is unknown does not count; the majority is of all voters, not of the live ones', () => {
    expect(majorityPair([voter(1, v2), voter(2, undefined), voter(3, v1, false), voter(4, v2)])).toBeUndefined();
    expect(majorityPair([voter(1, v2), voter(2, v2), voter(3, v1, false), voter(4, v2)])).toEqual(v2);
  });

  it('host epochs are part of the pair', () => {
    const e1 = { engine: 1, host_epoch: 1 };
    expect(majorityPair([voter(1, v1), voter(2, e1), voter(3, e1)])).toEqual(e1);
  });

  it('no voters: none', () => {
    expect(majorityPair([])).toBeUndefined();
  });
});

describe('version handshake verdict (SPEC 9.3)', () => {
  const own = { pair: v1, deployment: 'aa' };

  it('admits a sender of the same pair and deployment, or one not joined yet', () => {
    expect(versionVerdict(own, { pair: v1, deployment: 'aa' })).toBeUndefined();
    expect(versionVerdict(own, { pair: v1, deployment: '' })).toBeUndefined();
    expect(versionVerdict({ pair: v1, deployment: '' }, { pair: v1, deployment: 'bb' })).toBeUndefined();
  });

  it('refuses another engine format, another host epoch, another deployment, and a frame naming no pair', () => {
    expect(versionVerdict(own, { pair: v2, deployment: 'aa' })).toMatch(/runs version 2\.0; this member runs 1\.0/);
    expect(versionVerdict(own, { pair: { engine: 1, host_epoch: 3 }, deployment: 'aa' })).toMatch(/1\.3/);
    expect(versionVerdict(own, { pair: v1, deployment: 'bb' })).toMatch(/deployment bb/);
    expect(versionVerdict(own, { deployment: 'aa' })).toMatch(/names no version pair/);
  });

  it('the refusal is typed and carries the receiver pair', () => {
    const e = versionRefusal(own, 'why');
    expect(e).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'VERSION_MISMATCH', metadata: { engine_format: '1', host_epoch: '0', deployment: 'aa' } });
  });
});

describe('group version records', () => {
  it('the record with the larger seq is the newer', () => {
    const a = { pair: v1, seq: 1 };
    const b = { pair: v2, seq: 2 };
    expect(newerGroupVersion(a, b)).toBe(b);
    expect(newerGroupVersion(b, a)).toBe(b);
    expect(newerGroupVersion(a, undefined)).toBe(a);
  });
});
