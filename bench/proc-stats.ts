/** A process's memory and CPU time read from outside through /proc (Linux), so measuring costs the process nothing. */
import { readFileSync, writeFileSync } from 'node:fs'

export interface ProcMemory {
  /** Resident set size now, in KiB. */
  rssKb: number
  /** Peak resident set size since start or the last resetPeak, in KiB. */
  hwmKb: number
}

export function readMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') }
}

/** Starts the peak over (writing 5 to clear_refs); false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

/** Samples RSS every `everyMs` until stopped; the peak is the larger of the samples and the kernel's VmHWM. */
export function sampleMemory(pid: number, everyMs = 10): { stop(): { peakKb: number; samples: number } } {
  let peakKb = 0
  let samples = 0
  const take = () => {
    try {
      const { rssKb, hwmKb } = readMemory(pid)
      peakKb = Math.max(peakKb, rssKb, hwmKb)
      samples += 1
    } catch {} // the process may be gone; the samples so far stand
  }
  take()
  const timer = setInterval(take, everyMs)
  return {
    stop() {
      clearInterval(timer)
      take()
      return { peakKb, samples }
    },
  }
}

/** CPU time the process has used so far (user + system), in ms; /proc counts in clock ticks of 1/100 s. */
export function readCpuMs(pid: number): number {
  // The command name in parentheses may hold spaces; the fields after it are fixed.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
