"""A linear-chain CRF over a network's label scores (the output layer of the BiLSTM-CRF).

Batched over padded segments (``mask[b, t]`` true for real tokens, a prefix of each
row): negative log-likelihood for training, Viterbi labels and per-token marginals
(forward-backward) for tagging; the marginals give P(O), on which crfdeid's
recall-oriented decoding works as it does for the CRFsuite model.
"""

from __future__ import annotations

import torch
from torch import nn


class ChainCRF(nn.Module):
    """Transition, start and end scores of ``n_labels`` labels."""

    def __init__(self, n_labels: int):
        super().__init__()
        self.transitions = nn.Parameter(torch.zeros(n_labels, n_labels))  # [from, to]
        self.start = nn.Parameter(torch.zeros(n_labels))
        self.end = nn.Parameter(torch.zeros(n_labels))

    def _alphas(self, em: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        """Forward log-scores ``alpha_t`` (``[B, L]`` each); padded steps keep the previous one."""
        alpha = self.start + em[:, 0]
        out = [alpha]
        for t in range(1, em.shape[1]):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + self.transitions, dim=1) + em[:, t]
            alpha = torch.where(mask[:, t:t + 1], nxt, alpha)
            out.append(alpha)
        return out

    def nll(self, em: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Summed negative log-likelihood of the gold ``tags`` (``[B, T]``) given emissions ``[B, T, L]``."""
        log_z = torch.logsumexp(self._alphas(em, mask)[-1] + self.end, dim=1)
        m = mask.float()
        gold = em.gather(2, tags.unsqueeze(2)).squeeze(2)
        score = self.start[tags[:, 0]] + (gold * m).sum(1)
        score = score + (self.transitions[tags[:, :-1], tags[:, 1:]] * m[:, 1:]).sum(1)
        last = tags.gather(1, (mask.sum(1) - 1).unsqueeze(1)).squeeze(1)
        return (log_z - score - self.end[last]).sum()

    @torch.no_grad()
    def viterbi(self, em: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Best label indices ``[B, T]`` (padded positions: whatever the path carries there)."""
        score = self.start + em[:, 0]
        back = []
        for t in range(1, em.shape[1]):
            cand = score.unsqueeze(2) + self.transitions
            best, arg = cand.max(dim=1)
            nxt = best + em[:, t]
            keep = mask[:, t:t + 1]
            score = torch.where(keep, nxt, score)
            # A padded step points each label to itself, so the path passes through unchanged.
            same = torch.arange(em.shape[2], device=em.device).expand_as(arg)
            back.append(torch.where(keep, arg, same))
        last = (score + self.end).argmax(1)
        path = [last]
        for arg in reversed(back):
            last = arg.gather(1, last.unsqueeze(1)).squeeze(1)
            path.append(last)
        return torch.stack(path[::-1], dim=1)

    @torch.no_grad()
    def marginals(self, em: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Per-token label probabilities ``[B, T, L]`` (forward-backward)."""
        alphas = self._alphas(em, mask)
        n = em.shape[1]
        beta = self.end.expand(em.shape[0], -1)
        betas = [beta] * n
        for t in range(n - 2, -1, -1):
            nxt = torch.logsumexp(self.transitions + (em[:, t + 1] + beta).unsqueeze(1), dim=2)
            beta = torch.where(mask[:, t + 1:t + 2], nxt, beta)
            betas[t] = beta
        log_p = torch.stack(alphas, 1) + torch.stack(betas, 1)
        return torch.softmax(log_p, dim=2)
