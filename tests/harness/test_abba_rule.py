"""The ABBA decision's adaptive stop (kharness.measure.decided): a round whose incumbent slots
disagree once does not end the comparison early; more rounds outvote it."""
from kharness.measure import ADAPTIVE_MIN_ROUNDS, decided
from kharness.timing import abba_decision

# gather_dim1's round 1 of run 7 on the H200: the candidate faster in 6 of 6 rounds by about
# 2.6%, one incumbent slot (A1 of round 2) disturbed
GATHER = {
    "A1": [0.038208, 0.257248, 0.037984, 0.038080, 0.038304, 0.037984],
    "A2": [0.038112, 0.038016, 0.037792, 0.038144, 0.038048, 0.037664],
    "B1": [0.037632, 0.037216, 0.037216, 0.037120, 0.036960, 0.036864],
    "B2": [0.037280, 0.036960, 0.036896, 0.037056, 0.036704, 0.036992],
}
MIN_IMP = 0.01


def _more(slots: dict[str, list[float]], rounds: int) -> dict[str, list[float]]:
    """slots extended with quiet rounds like its own quiet ones."""
    out = {k: list(v) for k, v in slots.items()}
    for i in range(rounds):
        for k, vals in out.items():
            vals.append(slots[k][2 + i % 4])
    return out


def test_one_disturbed_round_does_not_decide() -> None:
    assert len(GATHER["A1"]) == ADAPTIVE_MIN_ROUNDS
    dec = abba_decision(GATHER["A1"], GATHER["B1"], GATHER["B2"], GATHER["A2"], MIN_IMP)
    assert not dec["faster_beyond_noise"] and dec["candidate_wins"] == 6 and dec["noise"] > 0.9
    assert decided(GATHER, MIN_IMP) is False              # before: True, and the candidate lost
    # the comparison then runs to its most rounds (20 in a round's compare), where the
    # disturbed round no longer sets the noise
    s = _more(GATHER, 14)
    dec = abba_decision(s["A1"], s["B1"], s["B2"], s["A2"], MIN_IMP)
    assert dec["faster_beyond_noise"] and dec["noise"] < 0.02


def test_a_losing_candidate_still_decides() -> None:
    quiet_loser = {k: [v * (1.03 if k[0] == "B" else 1.0) for v in GATHER["A2"]] for k in GATHER}
    assert decided(quiet_loser, MIN_IMP) is True          # slower in every round: settled
    loser = dict(quiet_loser, A1=list(GATHER["A1"]))       # the same with the disturbed slot
    assert decided(loser, MIN_IMP) is True                # a candidate that loses is not held
