import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFeatureFiles } from '../../tck/feature-suite.js';

/**
 * The examples of the Neo4j 5 Cypher manual, one feature file per page or group of pages in this
 * folder: each sets up the page's example graph and checks every example's answer, and the errors
 * the page names (null and wrong-typed arguments, out-of-range values), as Weft's own scenarios in
 * the TCK's step grammar (tck/feature-suite.ts). Where Weft deliberately differs, docs/cypher.md says so.
 */
describeFeatureFiles('the Cypher manual pages, example by example', dirname(fileURLToPath(import.meta.url)));
