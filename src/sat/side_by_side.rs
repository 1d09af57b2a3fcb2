/*!
Independent solver calls asked a few at once, their answers taken one at a time.

A band in pieces ([`super::bounds`]), the rungs of a chain being proved, the cubes of a split
rung: each is a list of questions that do not depend on each other, asked by `jobs` threads,
lowest first, whose answers must be written into one ladder. The shape is the same every time,
so it lives here once:

- Each worker takes the next item not yet taken, asks it, and sends the answer back; the items
  are started in order, so on one thread the first answer that closes the queue is that of the
  lowest item that closes it.
- Answers are taken on the calling thread, one at a time, so whatever they are written into has
  a single writer and needs no lock.
- `halt` stops the calls running (each `ask` is handed it and must end soon after it rises): a
  stop request (relayed from `stop`), a failure of `take`, or `take` raising it itself (a
  pattern found, which answers the question whatever the other calls say).
- An answer that `closes` the queue (no answer in time, a model, an error) only keeps further
  items from starting; the calls running end as they would, and their answers are still taken.
*/

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::{Duration, Instant};

/// Asks `items`, `jobs` at a time, with `ask(item, halt)`, and hands each answer to
/// `take(item, answer, seconds it took, halt)` on this thread, in the order they end. An answer
/// for which `closes` is true keeps further items from starting. `halt` rises when `stop` does,
/// when `take` fails, or when `take` raises it, and ends the calls running.
///
/// # Errors
/// The first error `take` returned (later answers are still taken, so nothing finished is lost).
pub fn ask_side_by_side<T, A>(
    items: &[T],
    jobs: usize,
    stop: &AtomicBool,
    ask: impl Fn(&T, &AtomicBool) -> A + Sync,
    closes: impl Fn(&A) -> bool + Sync,
    mut take: impl FnMut(&T, A, Duration, &AtomicBool) -> Result<(), String>,
) -> Result<(), String>
where
    T: Sync,
    A: Send,
{
    let (next, halt, no_more) = (
        AtomicUsize::new(0),
        AtomicBool::new(false),
        AtomicBool::new(false),
    );
    let worker = |sender: std::sync::mpsc::Sender<(usize, A, Duration)>| {
        while !halt.load(Relaxed) && !no_more.load(Relaxed) {
            let index = next.fetch_add(1, Relaxed);
            let Some(item) = items.get(index) else {
                break;
            };
            let started = Instant::now();
            let answer = ask(item, &halt);
            if closes(&answer) {
                no_more.store(true, Relaxed);
            }
            if sender.send((index, answer, started.elapsed())).is_err() {
                break;
            }
        }
    };
    let mut failure = None;
    let (sender, answers) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| crate::interrupt::relay_when(|| stop.load(Relaxed), &halt));
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let sender = sender.clone();
            let worker = &worker;
            scope.spawn(move || worker(sender));
        }
        drop(sender);
        for (index, answer, seconds) in answers {
            if let Err(e) = take(&items[index], answer, seconds, &halt) {
                halt.store(true, Relaxed);
                failure.get_or_insert(e);
            }
        }
        // Ends the relay: every worker is done.
        halt.store(true, Relaxed);
    });
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits until `flag` rises, or 5 s; returns whether it rose (an item waiting for `halt`
    /// shows whether the halt reached it).
    fn wait_for(flag: &AtomicBool) -> bool {
        let started = Instant::now();
        while !flag.load(Relaxed) && started.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        flag.load(Relaxed)
    }

    #[test]
    fn every_item_is_taken_once_and_jobs_run_at_once() {
        let (running, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let items: Vec<u32> = (0..12).collect();
        let mut taken = Vec::new();
        let ask = |&i: &u32, _: &AtomicBool| {
            let now = running.fetch_add(1, Relaxed) + 1;
            most.fetch_max(now, Relaxed);
            std::thread::sleep(Duration::from_millis(30));
            running.fetch_sub(1, Relaxed);
            i * i
        };
        let take = |&i: &u32, a: u32, _: Duration, _: &AtomicBool| {
            assert_eq!(a, i * i);
            taken.push(i);
            Ok(())
        };
        let stop = AtomicBool::new(false);
        ask_side_by_side(&items, 3, &stop, ask, |_| false, take).unwrap();
        taken.sort_unstable();
        assert_eq!(taken, items);
        assert_eq!(most.load(Relaxed), 3);
    }

    #[test]
    fn a_closing_answer_starts_nothing_more_and_one_thread_keeps_the_order() {
        let items: Vec<u32> = (0..10).collect();
        let mut taken = Vec::new();
        let take = |&i: &u32, _: u32, _: Duration, _: &AtomicBool| {
            taken.push(i);
            Ok(())
        };
        let stop = AtomicBool::new(false);
        let ask = |&i: &u32, _: &AtomicBool| i;
        ask_side_by_side(&items, 1, &stop, ask, |&a| a == 4, take).unwrap();
        assert_eq!(taken, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_failure_of_take_halts_the_calls_running_and_is_returned() {
        let items = [0u32, 1];
        let (halted, second_started) = (AtomicUsize::new(0), AtomicBool::new(false));
        let ask = |&i: &u32, halt: &AtomicBool| {
            // Item 0 fails only once item 1 runs beside it.
            match i {
                0 => assert!(wait_for(&second_started)),
                _ => {
                    second_started.store(true, Relaxed);
                    if wait_for(halt) {
                        halted.fetch_add(1, Relaxed);
                    }
                }
            }
            i
        };
        let take = |&i: &u32, _: u32, _: Duration, _: &AtomicBool| match i {
            0 => Err("item 0 failed".to_string()),
            _ => Ok(()),
        };
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let failure = ask_side_by_side(&items, 2, &stop, ask, |_| false, take);
        assert_eq!(failure, Err("item 0 failed".to_string()));
        assert_eq!(halted.load(Relaxed), 1);
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[test]
    fn a_stop_request_reaches_the_calls_running() {
        let stop = AtomicBool::new(false);
        let items = [0u32, 1, 2];
        let (mut taken, second_started) = (0, AtomicBool::new(false));
        let ask = |&i: &u32, halt: &AtomicBool| {
            // The stop is asked for once items 0 and 1 both run.
            match i {
                0 => {
                    assert!(wait_for(&second_started));
                    stop.store(true, Relaxed);
                }
                _ => second_started.store(true, Relaxed),
            }
            wait_for(halt)
        };
        let take = |_: &u32, ended_by_halt: bool, _: Duration, _: &AtomicBool| {
            assert!(ended_by_halt);
            taken += 1;
            Ok(())
        };
        ask_side_by_side(&items, 2, &stop, ask, |_| false, take).unwrap();
        // The two started end on the halt; the third never starts.
        assert_eq!(taken, 2);
    }
}
