/**
 * Text of a FLOAT the way Cypher's toString() and string concatenation show it (Java's Double.toString):
 * always a decimal point (`1.0`), scientific notation outside [1e-3, 1e7) as `1.0E20`, and `NaN`,
 * `Infinity`, `-Infinity`.
 */
export function formatFloat(f: number): string {
  if (f !== f) return 'NaN';
  if (f === Infinity) return 'Infinity';
  if (f === -Infinity) return '-Infinity';
  if (f === 0) return Object.is(f, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(f);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(f);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mantissa = '0', exponent = '0'] = f.toExponential().split('e');
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${exponent.startsWith('+') ? exponent.slice(1) : exponent}`;
}
