/** What a change wakes: the polls waiting on the task, and those of the client it is bound to (or of any client). */
export const taskChannel = (taskId: string) => `task:${taskId}`
export const clientChannel = (clientId: string) => `client:${clientId}`
export const UNBOUND_CHANNEL = 'client:*'
