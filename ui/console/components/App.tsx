import { hrefOf, type Route } from '../route'
import { useConsole } from '../context'
import { ClientsPage } from './ClientsPage'
import { SkillPage } from './SkillPage'
import { SkillsPage } from './SkillsPage'
import { TaskList } from './TaskList'
import { TaskPage } from './TaskPage'
import { TokenForm } from './TokenForm'

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'task':
      return <TaskPage key={route.taskId} taskId={route.taskId} />
    case 'skills':
      return <SkillsPage />
    case 'skill':
      return <SkillPage key={route.slug} slug={route.slug} />
    case 'clients':
      return <ClientsPage />
    default:
      return <TaskList />
  }
}

export function App() {
  const { store, t } = useConsole()
  const route = store.route.value
  const current = (page: Route['page']) => (route.page === page || (page === 'tasks' && route.page === 'task') || (page === 'skills' && route.page === 'skill') ? 'page' : undefined)
  return (
    <div class="console">
      <header class="console-head row">
        <h1>{t('title')}</h1>
        {store.token.value && (
          <nav class="row">
            <a href={hrefOf({ page: 'tasks' })} aria-current={current('tasks')}>
              {t('navTasks')}
            </a>
            <a href={hrefOf({ page: 'skills' })} aria-current={current('skills')}>
              {t('navSkills')}
            </a>
            <a href={hrefOf({ page: 'clients' })} aria-current={current('clients')}>
              {t('navClients')}
            </a>
            <button type="button" onClick={store.signOut}>
              {t('signOut')}
            </button>
          </nav>
        )}
      </header>
      <main>{store.token.value ? <Page route={route} /> : <TokenForm />}</main>
    </div>
  )
}
