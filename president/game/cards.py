"""Cards are small ints, hands are bitmasks.

A card is ``rank * 4 + suit``: rank 0 is the weakest rank in normal order ("3"), suit 0 the
weakest suit ("C"). A set of cards (a hand, a play) is an int whose bit ``card`` is set, so
the four cards of rank ``r`` sit in the nibble ``0xF << 4 * r``.

Text forms round-trip: ``Card.parse("10H")`` / ``str(card)``, ``parse_cards("3C 3D")`` /
``cards_text(mask)``; reprs paste back.
"""
from __future__ import annotations

from typing import Final, Iterable, Iterator, TypeAlias

from ..errors import CardError

#: Rank symbols in normal order, weakest first, and suit letters, weakest first.
RANK_SYMBOLS: Final[tuple[str, ...]] = ("3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A", "2")
SUIT_SYMBOLS: Final[tuple[str, ...]] = ("C", "D", "H", "S")
SUITS_PER_RANK: Final = 4
NUM_RANKS: Final = len(RANK_SYMBOLS)
DECK_SIZE: Final = NUM_RANKS * SUITS_PER_RANK

Rank: TypeAlias = int
Suit: TypeAlias = int
CardMask: TypeAlias = int  # a set of cards

RANK_MASKS: Final[tuple[int, ...]] = tuple(0xF << (4 * r) for r in range(NUM_RANKS))
FULL_DECK: Final[CardMask] = (1 << DECK_SIZE) - 1

_RANK_INDEX = {s: i for i, s in enumerate(RANK_SYMBOLS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUIT_SYMBOLS)}


class Card(int):
    """A card as an int with a text form: ``Card.parse("10H") == Card(7 * 4 + 2)``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> "Card":
        if text in JOKER_NAMES:
            return cls(DECK_SIZE + JOKER_NAMES.index(text))
        if not isinstance(text, str) or len(text) < 2:
            raise CardError(f"not a card: {text!r} (write the rank then the suit letter, e.g. '10H')")
        rank = _RANK_INDEX.get(text[:-1])
        suit = _SUIT_INDEX.get(text[-1])
        if rank is None or suit is None:
            raise CardError(f"not a card: {text!r} (ranks {' '.join(RANK_SYMBOLS)}; suits {' '.join(SUIT_SYMBOLS)}; jokers X1 X2)")
        return cls(rank * 4 + suit)

    @classmethod
    def from_rank_suit(cls, rank: Rank, suit: Suit) -> "Card":
        return cls(rank * 4 + suit)

    @property
    def rank(self) -> Rank:
        return int(self) >> 2

    @property
    def suit(self) -> Suit:
        return int(self) & 3

    def __str__(self) -> str:
        return CARD_NAMES[int(self)]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


#: Jokers (option jokers) are the cards after the 52: "X1" is card 52, "X2" card 53.
JOKER_NAMES: Final[tuple[str, ...]] = ("X1", "X2")
CARD_NAMES: Final[tuple[str, ...]] = tuple(RANK_SYMBOLS[c >> 2] + SUIT_SYMBOLS[c & 3] for c in range(DECK_SIZE)) + JOKER_NAMES
_NAME_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}


def card_index(text: str) -> int:
    """Fast parse of one card name to its int."""
    try:
        return _NAME_INDEX[text]
    except (KeyError, TypeError):
        return int(Card.parse(text))  # raises a CardError with a helpful message


def parse_cards(cards: str | Iterable[str]) -> CardMask:
    """``"3C 3D"`` or ``["3C", "3D"]`` to a mask. Duplicates are an error."""
    items = cards.split() if isinstance(cards, str) else list(cards)
    mask = 0
    for item in items:
        bit = 1 << card_index(item)
        if mask & bit:
            raise CardError(f"card {item!r} given twice")
        mask |= bit
    return mask


def iter_cards(mask: CardMask) -> Iterator[int]:
    """Cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_LIST_CACHE: dict[int, list[str]] = {}
#: Masks whose names `card_list` keeps (then it starts afresh): a few MB, whatever the length of the run.
LIST_CACHE_SIZE = 20_000


def card_list(mask: CardMask) -> list[str]:
    """Card names of a mask, lowest first (rank, then suit). Returns a fresh list."""
    names = _LIST_CACHE.get(mask)
    if names is None:
        if len(_LIST_CACHE) > LIST_CACHE_SIZE:
            _LIST_CACHE.clear()
        names = _LIST_CACHE[mask] = [CARD_NAMES[c] for c in iter_cards(mask)]
    return names[:]


def cards_text(mask: CardMask) -> str:
    return " ".join(card_list(mask))


def rank_of(mask: CardMask) -> Rank:
    """Rank of the highest card in the mask (for a one-rank play: its rank)."""
    return (mask.bit_length() - 1) >> 2


def is_one_rank(mask: CardMask) -> bool:
    return mask != 0 and mask & RANK_MASKS[rank_of(mask)] == mask


def rank_counts(mask: CardMask) -> list[int]:
    """How many cards of each rank the mask holds."""
    return [((mask >> (4 * r)) & 0xF).bit_count() for r in range(NUM_RANKS)]


def best_cards(mask: CardMask, k: int) -> CardMask:
    """The k best cards: highest rank in normal order, then highest suit."""
    out = 0
    for _ in range(min(k, mask.bit_count())):
        top = 1 << (mask.bit_length() - 1)
        out |= top
        mask ^= top
    return out


def worst_cards(mask: CardMask, k: int) -> CardMask:
    out = 0
    for _ in range(min(k, mask.bit_count())):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def _subsets_by_size(nibble: int) -> tuple[tuple[int, ...], ...]:
    """Sub-nibbles of `nibble` grouped by size 0..4, each group ascending (lowest suits first)."""
    groups: list[list[int]] = [[] for _ in range(5)]
    for sub in range(16):
        if sub & nibble == sub:
            groups[sub.bit_count()].append(sub)
    return tuple(tuple(g) for g in groups)


#: SUBSETS[rank][nibble][k]: masks of every k-card subset of the cards `nibble` of `rank`.
SUBSETS: Final[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]] = tuple(
    tuple(tuple(tuple(s << (4 * r) for s in g) for g in _subsets_by_size(nib)) for nib in range(16))
    for r in range(NUM_RANKS)
)
