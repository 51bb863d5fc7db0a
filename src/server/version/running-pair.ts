import { invalidArgument } from '../../common/errors.js';
import { server_pair, type VersionPair } from '../../log/version/version-pair.js';
import type { ServerConfig } from '../config.js';

/** The environment variable that allows `engine_format_override`: tests only. */
export const test_formats_env = 'WEFT_TEST_FORMATS';

/**
 * The version pair this member runs. One build runs one engine format; the setting
 * `engine_format_override` lets a test run two from one build (an "old" and a "new" release) for
 * real multi-process upgrade tests. It is refused unless WEFT_TEST_FORMATS=1, so no deployment sets
 * it by accident: a member with a made-up format would refuse every peer and rewrite its data
 * directory's ENGINE_FORMAT.
 */
export function runningPair(config: Pick<ServerConfig, 'engine_format_override'>, env: NodeJS.ProcessEnv = process.env): VersionPair {
  if (config.engine_format_override === 0) return server_pair;
  if (env[test_formats_env] !== '1') {
    throw invalidArgument(`engine_format_override is a test-only setting; it is refused unless ${test_formats_env}=1`, 'INVALID_REQUEST_FIELD', {
      field: 'engine_format_override',
      detail: 'test-only setting',
    });
  }
  return { engine: config.engine_format_override, host_epoch: server_pair.host_epoch };
}
