//! The memory budget shared by a server's connections, and each
//! connection's fair share of it.
//!
//! The budget counts bytes; a connection holds a [`Charge`] on it. When a
//! connection needs room the budget does not have, the connections holding
//! more than their share (the budget ÷ the connections open, at least
//! [`SHARE_FLOOR`]) are cut, the one whose frame started first (the
//! slowest sender) first, until enough room is on its way back. A
//! connection within its share is never cut for room. A connection may
//! grow past its share only while at least as much as it would then hold
//! stays free (else it waits for room, cutting nobody): so slow senders of
//! long frames leave room for the others (and for shorter frames over
//! their share), and are cut only when that runs out.

use super::ConnectionError;
use futures::task::AtomicWaker;
use std::collections::HashMap;
use std::future::poll_fn;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;

/// The least fair share of the budget: a connection holding no more than
/// this is never cut for room (unless the budget itself is smaller).
pub const SHARE_FLOOR: usize = 64 * 1024;

/// "Not in a frame" for [`Holder::since`].
const BETWEEN_FRAMES: u64 = u64::MAX;

/// A server's memory budget.
pub(crate) struct Budget {
    /// The bytes not held.
    free: Semaphore,
    total: usize,
    /// The origin of [`Holder::since`].
    base: Instant,
    holders: Mutex<HashMap<u64, Arc<Holder>>>,
    next_id: AtomicU64,
    /// The connections open.
    count: AtomicUsize,
    /// Signalled whenever bytes come back.
    room: Notify,
}

/// What the budget knows of one connection.
struct Holder {
    held: AtomicUsize,
    /// When its current frame started (milliseconds since the budget's
    /// base), or [`BETWEEN_FRAMES`].
    since: AtomicU64,
    /// The share it was over when it was cut (0: not cut).
    cut_at_share: AtomicUsize,
    waker: AtomicWaker,
}

impl Budget {
    pub(crate) fn new(total: usize) -> Arc<Budget> {
        Arc::new(Budget {
            free: Semaphore::new(total),
            total,
            base: Instant::now(),
            holders: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            count: AtomicUsize::new(0),
            room: Notify::new(),
        })
    }

    /// Whether holding `n` bytes is more than a connection's fair share
    /// now.
    fn over_share(&self, n: usize) -> bool {
        n > self.share(self.count.load(Ordering::Relaxed))
    }

    /// Takes `more` bytes now for a connection that will hold `n` if the
    /// budget has them, and, when `n` is over its share, as much as `n`
    /// stays free besides.
    fn try_take(&self, more: u32, n: usize) -> bool {
        let headroom = if self.over_share(n) { n } else { 0 };
        if self.free.available_permits() < (more as usize).saturating_add(headroom) {
            return false;
        }
        match self.free.try_acquire_many(more) {
            Ok(permit) => {
                permit.forget();
                true
            }
            Err(_) => false,
        }
    }

    /// Gives `n` bytes back.
    fn give(&self, n: usize) {
        self.free.add_permits(n);
        self.room.notify_waiters();
    }

    /// Waits until `more` bytes can be taken by a connection that will
    /// hold `n`, over its share (see [`try_take`](Budget::try_take)), and
    /// takes them.
    async fn take_over_share(&self, more: u32, n: usize) {
        loop {
            let room = self.room.notified();
            if self.try_take(more, n) {
                return;
            }
            room.await;
        }
    }

    fn holders(&self) -> MutexGuard<'_, HashMap<u64, Arc<Holder>>> {
        self.holders.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new connection's charge, holding nothing yet.
    pub(crate) fn charge(self: &Arc<Budget>) -> Charge {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let holder = Arc::new(Holder {
            held: AtomicUsize::new(0),
            since: AtomicU64::new(BETWEEN_FRAMES),
            cut_at_share: AtomicUsize::new(0),
            waker: AtomicWaker::new(),
        });
        self.holders().insert(id, holder.clone());
        self.count.fetch_add(1, Ordering::Relaxed);
        Charge {
            budget: self.clone(),
            holder,
            id,
            held: 0,
        }
    }

    /// The fair share of each of `n` connections.
    fn share(&self, n: usize) -> usize {
        (self.total / n.max(1)).max(SHARE_FLOOR)
    }

    /// Makes room for `need` more bytes for connection `me`: cuts
    /// connections over their share, oldest frame first, until the bytes
    /// of those already cut (which come back as they close) cover it.
    fn reclaim(&self, me: u64, need: usize) {
        let holders = self.holders();
        let share = self.share(holders.len());
        let cut = |h: &Holder| h.cut_at_share.load(Ordering::Relaxed) != 0;
        let mut coming: usize = holders
            .values()
            .filter(|h| cut(h))
            .map(|h| h.held.load(Ordering::Relaxed))
            .sum();
        if coming >= need {
            return;
        }
        // Only connections in the middle of a frame: a frame received whole
        // is the handler's to finish with.
        let mut over: Vec<(u64, usize, &Arc<Holder>)> = holders
            .iter()
            .filter(|&(&id, h)| id != me && !cut(h))
            .filter(|(_, h)| h.since.load(Ordering::Relaxed) != BETWEEN_FRAMES)
            .map(|(_, h)| {
                (
                    h.since.load(Ordering::Relaxed),
                    h.held.load(Ordering::Relaxed),
                    h,
                )
            })
            .filter(|&(_, held, _)| held > share)
            .collect();
        // The frame that started first, then the largest.
        over.sort_by_key(|&(since, held, _)| (since, std::cmp::Reverse(held)));
        for (_, held, h) in over {
            h.cut_at_share.store(share.max(1), Ordering::Relaxed);
            h.waker.wake();
            coming = coming.saturating_add(held);
            if coming >= need {
                break;
            }
        }
    }
}

/// Bytes of the memory budget held by one connection, returned when it is
/// dropped.
pub(crate) struct Charge {
    budget: Arc<Budget>,
    holder: Arc<Holder>,
    id: u64,
    held: usize,
}

impl Charge {
    /// The bytes held.
    pub(crate) fn held(&self) -> usize {
        self.held
    }

    fn set_held(&mut self, n: usize) {
        self.held = n;
        self.holder.held.store(n, Ordering::Relaxed);
    }

    /// Records when the connection's current frame started (`None`:
    /// between frames); the budget cuts the oldest frames first.
    pub(crate) fn frame_started(&self, at: Option<Instant>) {
        let ms = at.map_or(BETWEEN_FRAMES, |at| {
            u64::try_from(at.duration_since(self.budget.base).as_millis()).unwrap_or(u64::MAX - 1)
        });
        self.holder.since.store(ms, Ordering::Relaxed);
    }

    /// The bytes still missing to hold `n`, if any, as a permit count.
    fn missing(&self, n: usize) -> Result<Option<u32>, ConnectionError> {
        match n.checked_sub(self.held).filter(|&m| m > 0) {
            None => Ok(None),
            Some(more) => u32::try_from(more)
                .map(Some)
                .map_err(|_| ConnectionError::Budget),
        }
    }

    /// Holds at least `n` bytes if the budget has room now; `false` when
    /// it has not.
    pub(crate) fn try_grow_to(&mut self, n: usize) -> bool {
        let Ok(missing) = self.missing(n) else {
            return false;
        };
        let Some(more) = missing else { return true };
        let acquired = self.budget.try_take(more, n);
        if acquired {
            self.set_held(n);
        }
        acquired
    }

    /// Holds at least `n` bytes, waiting for room (and cutting connections
    /// over their share to make it).
    ///
    /// # Errors
    /// `n` is over what a budget can hold, or this connection was cut.
    pub(crate) async fn grow_to(&mut self, n: usize) -> Result<(), ConnectionError> {
        if self.try_grow_to(n) {
            return Ok(());
        }
        let Some(more) = self.missing(n)? else {
            return Ok(());
        };
        let budget = &self.budget;
        let holder = &self.holder;
        if budget.over_share(n) {
            // Over its share: waits for room (cutting nobody).
            tokio::select! {
                () = budget.take_over_share(more, n) => {}
                e = poll_fn(|cx| poll_cut(holder, self.held, cx)) => return Err(e),
            }
            self.set_held(n);
            return Ok(());
        }
        budget.reclaim(self.id, more as usize);
        tokio::select! {
            permit = budget.free.acquire_many(more) => {
                permit.map_err(|_| ConnectionError::Budget)?.forget();
            }
            e = poll_fn(|cx| poll_cut(holder, self.held, cx)) => return Err(e),
        }
        self.set_held(n);
        Ok(())
    }

    /// Holds at most `n` bytes.
    pub(crate) fn shrink_to(&mut self, n: usize) {
        if let Some(less) = self.held.checked_sub(n).filter(|&l| l > 0) {
            self.budget.give(less);
            self.set_held(n);
        }
    }

    /// Ready with [`ConnectionError::OverShare`] once the budget has cut
    /// this connection to make room for others.
    pub(crate) fn poll_cut(&self, cx: &mut Context<'_>) -> Poll<ConnectionError> {
        poll_cut(&self.holder, self.held, cx)
    }

    /// Waits until the budget cuts this connection.
    pub(crate) async fn cut(&self) -> ConnectionError {
        poll_fn(|cx| self.poll_cut(cx)).await
    }

    /// Starts waiting for `n` bytes in all: the missing permits, after
    /// cutting connections over their share to make room. Poll the future
    /// and [`add_acquired`](Charge::add_acquired) its permits.
    pub(crate) fn start_acquire(&self, n: usize) -> Result<Option<Acquire>, ConnectionError> {
        let Some(more) = self.missing(n)? else {
            return Ok(None);
        };
        let budget = self.budget.clone();
        if budget.over_share(n) {
            // Over its share: waits for room (cutting nobody).
            return Ok(Some(Acquire {
                more: more as usize,
                future: Box::pin(async move {
                    budget.take_over_share(more, n).await;
                    true
                }),
            }));
        }
        budget.reclaim(self.id, more as usize);
        Ok(Some(Acquire {
            more: more as usize,
            future: Box::pin(async move {
                match budget.free.acquire_many(more).await {
                    Ok(permit) => {
                        permit.forget();
                        true
                    }
                    Err(_) => false,
                }
            }),
        }))
    }

    /// Adds the bytes an [`Acquire`] got.
    pub(crate) fn add_acquired(&mut self, more: usize) {
        self.set_held(self.held.saturating_add(more));
    }
}

fn poll_cut(holder: &Holder, held: usize, cx: &mut Context<'_>) -> Poll<ConnectionError> {
    let cut = |h: &Holder| h.cut_at_share.load(Ordering::Relaxed);
    if cut(holder) == 0 {
        holder.waker.register(cx.waker());
        if cut(holder) == 0 {
            return Poll::Pending;
        }
    }
    Poll::Ready(ConnectionError::OverShare {
        held,
        share: cut(holder),
    })
}

/// A wait for budget room started by [`Charge::start_acquire`]: `true`
/// once `more` bytes are held for the charge.
pub(crate) struct Acquire {
    pub(crate) more: usize,
    pub(crate) future: std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>>,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.shrink_to(0);
        self.budget.holders().remove(&self.id);
        self.budget.count.fetch_sub(1, Ordering::Relaxed);
    }
}
