import { defineNitroPlugin } from 'nitropack/runtime'
import { useToken } from '../lib/auth/use-token'

export default defineNitroPlugin(() => {
  const { token, source, file } = useToken()
  if (source === 'generated') {
    console.log(`[tandem] generated an access token (saved in ${file}):\n\n    ${token}\n\nPaste it into the extension's settings.`)
  } else if (source === 'file') {
    console.log(`[tandem] access token: ${file}`)
  }
})
