/** Whether a rules file's pattern is a regular expression at all, so a bad one is refused when the file is read. */
export const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, 'i')
    return true
  } catch {
    return false
  }
}
