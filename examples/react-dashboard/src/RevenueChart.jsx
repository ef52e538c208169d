// A bar chart of revenue per region, drawn as SVG (no chart library).
const WIDTH = 360;
const BAR = 28;
const LABEL = 70;

/** @param {{ rows: readonly { region: string, revenue: number }[] }} props */
export function RevenueChart({ rows }) {
  const max = Math.max(1, ...rows.map((row) => row.revenue));
  return (
    <svg className="chart" width={WIDTH} height={rows.length * BAR + 4} role="img" aria-label="Revenue by region">
      {rows.map((row, i) => {
        const width = ((WIDTH - LABEL - 60) * row.revenue) / max;
        const y = i * BAR + 2;
        return (
          <g key={row.region}>
            <text x={0} y={y + 18}>{row.region}</text>
            <rect x={LABEL} y={y} width={width} height={BAR - 6} fill="#3b82f6" data-region={row.region} />
            <text x={LABEL + width + 4} y={y + 18}>{Math.round(row.revenue)}</text>
          </g>
        );
      })}
    </svg>
  );
}
