"""The numpy tagging backend: CRFsuite's weights read once, per-word-type emission scores,
Viterbi and forward-backward over a batch of segments at once (same labels as CRFsuite)."""
