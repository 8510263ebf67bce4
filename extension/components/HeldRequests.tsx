import type { HeldRequest } from '#protocol'
import { describeSends } from '../lib/panel/describe'

/** What the page tries to send, request by request: method and address, then what it carries. */
export function HeldRequests({ requests }: { requests: HeldRequest[] }) {
  return (
    <ul class="sends" data-testid="sends">
      {requests.map((r, i) => (
        <li key={i}>
          <div class="url">
            {r.method} {r.url}
          </div>
          {describeSends(r) && <div class="muted">{describeSends(r)}</div>}
        </li>
      ))}
    </ul>
  )
}
