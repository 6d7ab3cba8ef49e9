//! Lion power: the lion's steps, jumps and two-step moves (igui, jitto), the partial powers of the
//! horned falcon and soaring eagle, and the restriction on capturing a protected lion at distance.

use crate::attacks::is_attacked;
use crate::generation_context::Ctx;
use crate::moves::{Move, MoveList};
use crate::piece::{DIR_OFFSETS, EMPTY, KIND_MASK, Kind, is_lion_code};

/// Mailbox offsets of the 16 squares at distance exactly 2.
const RING2: [i16; 16] = [
    -34, -33, -32, -31, -30, -18, -14, -2, 2, 14, 18, 30, 31, 32, 33, 34,
];

#[inline]
fn distance(a: usize, b: usize) -> usize {
    let (ra, ca) = (a / 16, a % 16);
    let (rb, cb) = (b / 16, b % 16);
    ra.abs_diff(rb).max(ca.abs_diff(cb))
}

/// Whether capturing with only a pawn or go-between (or nothing) on the first step leaves a lion
/// at distance 2 off limits when protected (tsukegui needs a more valuable first victim).
#[inline]
fn weak_first_victim(c: u8) -> bool {
    if c == EMPTY {
        return true;
    }
    let k = c & KIND_MASK;
    k == Kind::Pawn as u8 || k == Kind::GoBetween as u8
}

pub(crate) fn generate_lion(ctx: &Ctx<'_>, from: usize, _code: u8, list: &mut MoveList) {
    let board = &ctx.pos.board;
    let enemy = ctx.us.opposite();
    for &o in &DIR_OFFSETS {
        let to = (from as i16 + o) as usize;
        if ctx.can_enter(board[to]) {
            list.push(Move::raw(from as u8, to as u8, 0, false));
        }
    }
    for &o in &RING2 {
        let to = (from as i16 + o) as usize;
        let c = board[to];
        if !ctx.can_enter(c) {
            continue;
        }
        if is_lion_code(c) && is_attacked(ctx.pos, to, enemy, &[from]) {
            continue;
        }
        list.push(Move::raw(from as u8, to as u8, 0, false));
    }
    for &o1 in &DIR_OFFSETS {
        let mid = (from as i16 + o1) as usize;
        let cm = board[mid];
        if !ctx.can_enter(cm) {
            continue;
        }
        for &o2 in &DIR_OFFSETS {
            let to = (mid as i16 + o2) as usize;
            if to == from {
                list.push(Move::raw(from as u8, from as u8, mid as u8, false));
                continue;
            }
            let c = board[to];
            if !ctx.can_enter(c) {
                continue;
            }
            if is_lion_code(c)
                && distance(from, to) == 2
                && weak_first_victim(cm)
                && is_attacked(ctx.pos, to, enemy, &[from, mid])
            {
                continue;
            }
            list.push(Move::raw(from as u8, to as u8, mid as u8, false));
        }
    }
}

/// Horned falcon (forward) and soaring eagle (forward diagonals): along each direction of `mask`,
/// one step, the jump to the second square, and the two-step moves through the first square
/// (onward, or back to the start).
pub(crate) fn generate_partial(ctx: &Ctx<'_>, from: usize, mask: u8, list: &mut MoveList) {
    let board = &ctx.pos.board;
    let mut dirs = mask;
    while dirs != 0 {
        let dir = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let o = DIR_OFFSETS[dir] * ctx.sign;
        let a = (from as i16 + o) as usize;
        let b = (from as i16 + 2 * o) as usize;
        let (ca, cb) = (board[a], board[b]);
        let a_ok = ctx.can_enter(ca) && (ca == EMPTY || ctx.non_lion_may_capture(ca, a, &[from]));
        let b_ok = ctx.can_enter(cb) && (cb == EMPTY || ctx.non_lion_may_capture(cb, b, &[from]));
        if a_ok {
            list.push(Move::raw(from as u8, a as u8, 0, false));
        }
        if b_ok {
            list.push(Move::raw(from as u8, b as u8, 0, false));
        }
        if a_ok {
            if b_ok {
                list.push(Move::raw(from as u8, b as u8, a as u8, false));
            }
            list.push(Move::raw(from as u8, from as u8, a as u8, false));
        }
    }
}
