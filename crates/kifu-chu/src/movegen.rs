//! Legal move generation for single steps, slides and jumps, with promotion choices and the
//! counter-strike rule (lion-type powers are in [`crate::lion`]), and the position's questions
//! that need it: its legal moves, whether a move is legal, a checked `play`.

use crate::generation_context::Ctx;
use crate::moves::{Move, MoveList};
use crate::piece::{
    COLOR_BIT, Color, DIR_OFFSETS, EMPTY, KIND_MASK, Kind, OCCUPIED_BIT, PROMOTED_BIT, Piece, Power,
};
use crate::position::{IllegalMove, Position};

pub(crate) fn generate(pos: &Position, list: &mut MoveList) {
    let us = pos.turn;
    let ctx = Ctx {
        pos,
        us,
        enemy_bits: OCCUPIED_BIT | us.opposite().bit(),
        sign: if us == Color::Black { 1 } else { -1 },
    };
    let own_bits = OCCUPIED_BIT | us.bit();
    for rank in 2..14usize {
        for col in 2..14usize {
            let from = rank * 16 + col;
            let code = pos.board[from];
            if code & (OCCUPIED_BIT | COLOR_BIT) != own_bits {
                continue;
            }
            generate_piece(&ctx, from, code, list);
        }
    }
}

pub(crate) fn generate_piece(ctx: &Ctx<'_>, from: usize, code: u8, list: &mut MoveList) {
    let board = &ctx.pos.board;
    let kind = Kind::from_u8(code & KIND_MASK);
    let m = kind.movement();
    let is_lion = kind == Kind::Lion;
    let mut steps = m.steps;
    while steps != 0 {
        let dir = steps.trailing_zeros() as usize;
        steps &= steps - 1;
        let to = (from as i16 + DIR_OFFSETS[dir] * ctx.sign) as usize;
        let c = board[to];
        if ctx.can_enter(c) {
            push_single(ctx, from, to, code, c, is_lion, list);
        }
    }
    let mut jumps = m.jumps;
    while jumps != 0 {
        let dir = jumps.trailing_zeros() as usize;
        jumps &= jumps - 1;
        let to = (from as i16 + 2 * DIR_OFFSETS[dir] * ctx.sign) as usize;
        let c = board[to];
        if ctx.can_enter(c) {
            push_single(ctx, from, to, code, c, is_lion, list);
        }
    }
    let mut slides = m.slides;
    while slides != 0 {
        let dir = slides.trailing_zeros() as usize;
        slides &= slides - 1;
        let o = DIR_OFFSETS[dir] * ctx.sign;
        let mut to = from as i16 + o;
        loop {
            let c = board[to as usize];
            if c == EMPTY {
                push_single(ctx, from, to as usize, code, c, is_lion, list);
            } else {
                if ctx.is_enemy(c) {
                    push_single(ctx, from, to as usize, code, c, is_lion, list);
                }
                break;
            }
            to += o;
        }
    }
    match m.power {
        Power::None => {}
        Power::Lion => crate::lion::generate_lion(ctx, from, code, list),
        Power::Partial(mask) => crate::lion::generate_partial(ctx, from, mask, list),
    }
}

/// Pushes a one-leg move to an empty or enemy square, with its promotion choices.
#[inline]
pub(crate) fn push_single(
    ctx: &Ctx<'_>,
    from: usize,
    to: usize,
    code: u8,
    captured: u8,
    is_lion: bool,
    list: &mut MoveList,
) {
    if !is_lion && captured != EMPTY && !ctx.non_lion_may_capture(captured, to, &[from]) {
        return;
    }
    if may_promote(ctx, from, to, code, captured != EMPTY) {
        list.push(Move::raw(from as u8, to as u8, 0, true));
    }
    list.push(Move::raw(from as u8, to as u8, 0, false));
}

/// Rank index 0–11 of a mailbox cell.
#[inline]
fn rank_of(idx: usize) -> usize {
    idx / 16 - 2
}

#[inline]
fn in_zone(us: Color, idx: usize) -> bool {
    match us {
        Color::Black => rank_of(idx) <= 3,
        Color::White => rank_of(idx) >= 8,
    }
}

/// The promotion rule: entering the zone, capturing with a move that starts or ends in it, or a
/// pawn (and under lishogi rules a lance) reaching the last rank.
#[inline]
fn may_promote(ctx: &Ctx<'_>, from: usize, to: usize, code: u8, capture: bool) -> bool {
    if code & PROMOTED_BIT != 0 {
        return false;
    }
    let kind = Kind::from_u8(code & KIND_MASK);
    if kind.promoted().is_none() {
        return false;
    }
    let zf = in_zone(ctx.us, from);
    let zt = in_zone(ctx.us, to);
    let enters = !zf && zt;
    if enters || (capture && (zf || zt)) {
        return true;
    }
    let last = match ctx.us {
        Color::Black => rank_of(to) == 0,
        Color::White => rank_of(to) == 11,
    };
    last && (kind == Kind::Pawn
        || (kind == Kind::Lance && ctx.pos.rules.lance_promotes_on_last_rank))
}

impl Position {
    /// All legal moves, into a reused buffer.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        generate(self, list);
    }

    /// All legal moves (allocates; see [`Position::legal_moves_into`] for hot loops).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        // Generation per piece would be faster, but legality checks are not on a hot path.
        let own = self.board[m.origin_cell()];
        if own & OCCUPIED_BIT == 0 || Piece::from_code(own).map(|p| p.color) != Some(self.turn) {
            return false;
        }
        self.legal_moves().contains(&m)
    }

    /// Plays a move if it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove(m))
        }
    }
}
