//! The scene's own thread: every edit is applied and every layer computed here, off the
//! threads that serve requests, which only read the last completed [`Snapshot`] or wait
//! (without blocking a thread) for their edit's answer.
//!
//! The worker takes every edit waiting before it computes, so a burst of edits costs one
//! computation. A computation stops between two sources (`Run::prepare`) or two diffusion
//! rounds as soon as an edit arrives; the edit is applied, and the next computation goes on
//! from what the edit left valid. An edit's answer is the first snapshot that includes it,
//! so an edit superseded while it computed is answered with the state of the newer one too.
//! Between snapshots, readers see `computing: true`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, watch};

use crate::api::ApiError;
use crate::scene::{Edit, Scene};
use crate::snapshot::{Shown, Snapshot, Spare};

/// How often a long diffusion replay shows its progress to readers.
const PROGRESS: Duration = Duration::from_millis(100);

/// An applied edit: the first snapshot that includes it, and a new source's id.
#[derive(Debug)]
pub struct Done {
    /// The scene once computed.
    pub snapshot: Arc<Snapshot>,
    /// The id of the source added.
    pub id: Option<u32>,
}

type Reply = oneshot::Sender<Result<Done, ApiError>>;

/// The way to the worker: send it edits, read what it last computed.
#[derive(Debug, Clone)]
pub struct Worker {
    edits: mpsc::Sender<(Edit, Reply)>,
    /// Edits sent and not yet taken: a computation stops for them.
    waiting: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    shown: watch::Receiver<Shown>,
}

impl Worker {
    /// Starts the worker on `scene`, after computing its first snapshot on this thread.
    ///
    /// # Errors
    /// If the thread cannot be started.
    pub fn spawn(mut scene: Scene) -> std::io::Result<(Self, JoinHandle<()>)> {
        scene.build(&mut || false);
        let caught_up = scene.step();
        let first =
            Shown { snapshot: Arc::new(scene.snapshot(None, &mut Spare::default())), computing: false };
        let (shown_tx, shown) = watch::channel(first);
        let (edits, rx) = mpsc::channel();
        let waiting = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let state = Loop {
            scene,
            rx,
            waiting: Arc::clone(&waiting),
            stop: Arc::clone(&stop),
            shown: shown_tx,
            spare: Spare::default(),
        };
        let thread =
            std::thread::Builder::new().name("sandbox-scene".into()).spawn(move || state.run(!caught_up))?;
        Ok((Self { edits, waiting, stop, shown }, thread))
    }

    /// Applies `edit` and waits (asynchronously) for the first snapshot that includes it.
    ///
    /// # Errors
    /// The scene's refusal, or 503 if the worker has stopped.
    pub async fn edit(&self, edit: Edit) -> Result<Done, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        if self.edits.send((edit, reply)).is_err() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(stopped());
        }
        answer.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// What readers are shown now.
    pub fn shown(&self) -> Shown {
        self.shown.borrow().clone()
    }

    /// Changes of what readers are shown.
    pub fn watch(&self) -> watch::Receiver<Shown> {
        self.shown.clone()
    }

    /// Asks the worker to stop (once the edits sent are answered, or at once if idle).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake it if it waits for an edit: a no-op edit whose answer nobody reads.
        let (reply, _) = oneshot::channel();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        if self.edits.send((Edit::Advance(0), reply)).is_err() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

fn stopped() -> ApiError {
    ApiError::new(503, "the sandbox is shutting down")
}

/// The worker's side.
struct Loop {
    scene: Scene,
    rx: mpsc::Receiver<(Edit, Reply)>,
    waiting: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    shown: watch::Sender<Shown>,
    /// The buffers of the last snapshot no reader holds.
    spare: Spare,
}

impl Loop {
    /// Applies edits and computes until stopped; `busy` when the first snapshot left a replay
    /// to finish.
    fn run(mut self, mut busy: bool) {
        let mut answers: Vec<(Reply, Option<u32>)> = Vec::new();
        let mut published = Instant::now();
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return; // the edits waiting are answered 503 as their replies drop
            }
            // Take every edit waiting before computing; wait for one only when idle.
            let next = if busy || !answers.is_empty() {
                match self.rx.try_recv() {
                    Ok(edit) => Some(edit),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => return,
                }
            } else {
                match self.rx.recv() {
                    Ok(edit) => Some(edit),
                    Err(_) => return,
                }
            };
            if let Some((edit, reply)) = next {
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                self.apply(edit, reply, &mut answers);
                busy = true;
                continue;
            }
            let waiting = Arc::clone(&self.waiting);
            let stop = Arc::clone(&self.stop);
            let mut interrupted = move || waiting.load(Ordering::SeqCst) > 0 || stop.load(Ordering::SeqCst);
            let scene = &mut self.scene;
            let round = catch_unwind(AssertUnwindSafe(|| {
                let started = Instant::now();
                if !scene.build(&mut interrupted) {
                    tracing::debug!("building interrupted by an edit after {:?}", started.elapsed());
                    return None;
                }
                let caught_up = scene.step();
                tracing::debug!("built and stepped in {:?}", started.elapsed());
                Some(caught_up)
            }));
            match round {
                Ok(None) => {} // an edit arrived: take it first
                Ok(Some(caught_up)) => {
                    busy = !caught_up;
                    // A long replay shows its progress now and then, and every answer at once.
                    if caught_up || !answers.is_empty() || published.elapsed() >= PROGRESS {
                        busy |= !self.publish(&mut answers);
                        published = Instant::now();
                    }
                }
                Err(_) => {
                    self.recover(&mut answers);
                    busy = true;
                }
            }
        }
    }

    /// Applies one edit: a refusal is answered at once, an accepted edit when computed.
    fn apply(&mut self, edit: Edit, reply: Reply, answers: &mut Vec<(Reply, Option<u32>)>) {
        let scene = &mut self.scene;
        match catch_unwind(AssertUnwindSafe(|| scene.apply(edit))) {
            Ok(Ok(id)) => {
                answers.push((reply, id));
                self.shown.send_if_modified(|shown| !std::mem::replace(&mut shown.computing, true));
            }
            Ok(Err(e)) => drop(reply.send(Err(e.into()))),
            Err(_) => {
                // Computed again from scratch by the next round.
                answers.push((reply, None));
                self.recover(answers);
            }
        }
    }

    /// Shows the scene as computed, and answers the edits it includes; `false` if that
    /// failed (and the scene is computed again).
    fn publish(&mut self, answers: &mut Vec<(Reply, Option<u32>)>) -> bool {
        let before = self.shown.borrow().clone();
        let (scene, spare) = (&mut self.scene, &mut self.spare);
        let started = Instant::now();
        let taken = catch_unwind(AssertUnwindSafe(|| scene.snapshot(Some(&before), spare)));
        drop(before);
        let snapshot = match taken {
            Ok(s) => Arc::new(s),
            Err(_) => {
                self.recover(answers);
                return false;
            }
        };
        tracing::debug!("snapshot {} taken in {:?}", snapshot.version(), started.elapsed());
        let retired = self.shown.send_replace(Shown { snapshot: Arc::clone(&snapshot), computing: false });
        self.spare.reclaim(retired.snapshot);
        for (reply, id) in answers.drain(..) {
            let _ = reply.send(Ok(Done { snapshot: Arc::clone(&snapshot), id }));
        }
        true
    }

    /// After a panic: the scene's layers are computed again from scratch, and the edits
    /// waiting are answered 500 (what they changed may or may not have been kept).
    fn recover(&mut self, answers: &mut Vec<(Reply, Option<u32>)>) {
        self.scene.recover();
        for (reply, _) in answers.drain(..) {
            let _ = reply.send(Err(ApiError::new(500, "internal error; the scene is computed again")));
        }
    }
}
