// The dashboard: revenue per region (a table and a chart), the top
// customers, and a control that ingests orders. Each view is one
// useLiveQuery; React re-renders once per step that changed it.
import { useLiveQuery, usePipeline } from 'freshet/react';
import { useMemo, useState } from 'react';

import { RevenueChart } from './RevenueChart.jsx';
import { randomOrders } from './pipeline.js';

export function App() {
  return (
    <main>
      <h1>Orders, live</h1>
      <AddOrders />
      <div className="panels">
        <RevenueByRegion />
        <TopCustomers />
      </div>
    </main>
  );
}

/** The ingesting control: inserts a batch of random orders; the pipeline steps on its own. */
function AddOrders() {
  const pipeline = usePipeline();
  const [count, setCount] = useState(20);
  return (
    <form onSubmit={(event) => {
      event.preventDefault();
      pipeline.insert('orders', randomOrders(count));
    }}>
      <label>
        Orders to add <input type="number" min="1" max="1000" value={count}
          onChange={(event) => setCount(Math.max(1, Number(event.target.value) || 1))} />
      </label>
      <button type="submit" disabled={!pipeline}>Add orders</button>
    </form>
  );
}

function RevenueByRegion() {
  const { rows, status, error, changes } = useLiveQuery(null, 'revenue_by_region', { key: 'region' });
  const sorted = useMemo(() => [...rows].sort((a, b) => a.region.localeCompare(b.region)), [rows]);
  return (
    <section id="revenue" data-status={status}>
      <h2>Revenue by region</h2>
      <Status status={status} error={error} step={changes?.step} />
      <RevenueChart rows={sorted} />
      <table>
        <thead><tr><th>Region</th><th>Orders</th><th>Revenue</th></tr></thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.region} data-row={JSON.stringify(row)}>
              <td>{row.region}</td><td>{row.orders}</td><td>{row.revenue.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TopCustomers() {
  const { rows, status, error, changes } = useLiveQuery(null, 'top_customers');
  const sorted = useMemo(() => [...rows].sort((a, b) => b.spent - a.spent || a.name.localeCompare(b.name)), [rows]);
  return (
    <section id="top" data-status={status}>
      <h2>Top customers</h2>
      <Status status={status} error={error} step={changes?.step} />
      <ol>
        {sorted.map((row) => (
          <li key={row.name} data-row={JSON.stringify(row)}>
            {row.name} ({row.region}): {row.spent.toFixed(2)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Status({ status, error, step }) {
  if (status === 'error') return <p className="status error">{error.message}</p>;
  if (status === 'loading') return <p className="status">loading…</p>;
  return <p className="status">{step === undefined ? 'snapshot' : `step ${step}`}</p>;
}
