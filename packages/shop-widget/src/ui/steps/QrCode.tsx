import { encode } from "uqr";

/**
 * A QR code as one SVG path (no inline styles, no innerHTML: safe under a strict CSP). Black modules on a
 * white plate in every theme, set by the widget's own classes with important declarations in its layer, so
 * no host rule (`svg path { fill: lime }`, `rect { opacity }`) can recolour it and make it unscannable.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { data, size } = encode(value, { ecc: "M", border: 2 });
  let d = "";
  for (let y = 0; y < size; y += 1) {
    const row = data[y] ?? [];
    for (let x = 0; x < size; x += 1) if (row[x]) d += `M${x} ${y}h1v1h-1z`;
  }
  return (
    <svg className="entrada-shop__qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label}>
      <rect className="entrada-shop__qr-plate" width={size} height={size} />
      <path className="entrada-shop__qr-code" d={d} />
    </svg>
  );
}
