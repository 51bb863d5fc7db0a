import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFeatureFiles } from '../tck/feature-suite.js';

/**
 * Weft's own conformance scenarios, beyond the openCypher TCK files in ../../shared/tck: feature files
 * under ./features, each one test, every scenario strict (tck/feature-suite.ts).
 */
describeFeatureFiles('conformance scenarios against the embedded engine', join(dirname(fileURLToPath(import.meta.url)), 'features'));
