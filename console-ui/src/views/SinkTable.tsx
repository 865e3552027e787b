import { formatTime } from '../lib/format';
import { formatCell, rawCell, type SinkOutput } from '../lib/output';

/**
 * One sink's records, newest first, under one header row of its own columns. Fields in `times`
 * holding epoch milliseconds are shown as local instants, the raw value in the cell's tooltip.
 */
export function SinkTable({ output, times, titled }: { output: SinkOutput; times: Set<string>; titled: boolean }) {
  const { operatorId, records, columns } = output;
  const numeric = new Set(columns.filter((c) => !times.has(c) && records.some((r) => typeof r.value[c] === 'number')));
  return (
    <section className="output-sink" data-testid="output-sink" data-sink={operatorId}>
      {titled && (
        <h3>
          <span className="mono">{operatorId}</span>{' '}
          <span className="muted small">
            {records.length} {records.length === 1 ? 'record' : 'records'}
          </span>
        </h3>
      )}
      <div className="table-scroll output-scroll">
        <table className="table table-dense" aria-label={`Live output of ${operatorId}`}>
          <thead>
            <tr>
              <th>Written</th>
              {columns.length === 0 ? <th>Value</th> : columns.map((c) => <th key={c} className={numeric.has(c) ? 'col-field num' : 'col-field'}>{c}</th>)}
            </tr>
          </thead>
          <tbody>
            {records.map((r, i) => (
              <tr key={i}>
                <td className="tabular nowrap" title={r.at}>{formatTime(r.at)}</td>
                {columns.length === 0 ? (
                  <td className="mono">{formatCell(r.value)}</td>
                ) : (
                  columns.map((c) => {
                    const v = r.value[c];
                    const isTime = times.has(c);
                    return (
                      <td key={c} className={isTime ? 'tabular nowrap' : typeof v === 'number' ? 'num' : 'mono'} title={rawCell(v, isTime)}>
                        {formatCell(v, isTime)}
                      </td>
                    );
                  })
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
