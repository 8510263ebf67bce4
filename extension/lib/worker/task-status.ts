import type { TaskStatus } from '#protocol'
import type { ServerClient } from '../server/client'

/** A task's status as the server says it now, or null when the server cannot say (unreachable, unknown task). */
export async function statusOf(server: Pick<ServerClient, 'status'>, taskId: string): Promise<TaskStatus | null> {
  try {
    return (await server.status(taskId)).task.status
  } catch {
    return null
  }
}
