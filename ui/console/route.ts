/** The console's pages, addressed by the URL fragment so the server only ever serves one shell. */
export type Route = { page: 'tasks' } | { page: 'task'; taskId: string } | { page: 'skills' } | { page: 'skill'; slug: string } | { page: 'clients' }

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '').split(/[?&]/)[0] ?? ''
  const [head, id] = path.split('/')
  if (head === 'task' && id) return { page: 'task', taskId: decodeURIComponent(id) }
  if (head === 'skills' && id) return { page: 'skill', slug: decodeURIComponent(id) }
  if (head === 'skills') return { page: 'skills' }
  if (head === 'clients') return { page: 'clients' }
  return { page: 'tasks' }
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'task':
      return `#/task/${encodeURIComponent(route.taskId)}`
    case 'tasks':
      return '#/'
    case 'skill':
      return `#/skills/${encodeURIComponent(route.slug)}`
    default:
      return `#/${route.page}`
  }
}
