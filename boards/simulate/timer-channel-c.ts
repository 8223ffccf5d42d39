// avr8js 0.21.1's AVRTimer has a third compare channel (OCRnC) but leaves three parts of it out,
// all of which the ATmega2560's Timers 1, 3, 4 and 5 use (datasheet 17.9 and 17.11):
//  - Fast PWM sets OCnA and OCnB at BOTTOM but not OCnC (timer.js `count`: only compA/compB), so
//    analogWrite-style fast PWM on OC3C (Mega pin 3), OC4C (8) or OC5C (44) would stay low;
//  - writing 1 to OCFnC in TIFRn does not clear a pending compare-C interrupt;
//  - enabling OCIEnC in TIMSKn does not raise a compare-C interrupt whose flag is already set.
// addChannelC wraps the timer's own methods to add them; the 328P's timers have no channel C.
import type { AVRTimer, AVRTimerConfig, CPU } from 'avr8js';
import { FAST_PWM, type TimerInternals } from './timer-events.js';

export function addChannelC(timer: AVRTimer, cpu: CPU, config: AVRTimerConfig): void {
  if (!config.OCRC) return;
  const internals = timer as unknown as TimerInternals;
  const count = internals.count;
  if (typeof count !== 'function' || typeof internals.updateCompPin !== 'function' || !internals.OCFC) {
    throw new Error('avr8js AVRTimer no longer has the count/updateCompPin/OCFC members boards/simulate/timer-channel-c.ts completes (written for avr8js 0.21.1); check its channel C and update the file');
  }
  // Replaced before anything schedules it: avr8js always schedules `this.count`, so the wrapper runs.
  internals.count = (reschedule = true, external = false) => {
    const delta = cpu.cycles - internals.lastCycle;
    const counts = (internals.divider && delta >= internals.divider) || external;
    const steps = external ? 1 : Math.floor(delta / (internals.divider || 1));
    const wraps = counts && internals.timerMode === FAST_PWM && internals.tcnt + steps > internals.TOP;
    count(reschedule, external);
    if (wraps && internals.compC) internals.updateCompPin(internals.compC, 'C', true);
  };
  const tifr = cpu.writeHooks[config.TIFR];
  cpu.writeHooks[config.TIFR] = (value, oldValue, addr, mask) => {
    const handled = tifr?.(value, oldValue, addr, mask);
    cpu.clearInterruptByFlag(internals.OCFC, value);
    return handled;
  };
  const timsk = cpu.writeHooks[config.TIMSK];
  cpu.writeHooks[config.TIMSK] = (value, oldValue, addr, mask) => {
    const handled = timsk?.(value, oldValue, addr, mask);
    cpu.updateInterruptEnable(internals.OCFC, value);
    return handled;
  };
}
