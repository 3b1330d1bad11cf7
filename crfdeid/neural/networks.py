"""The networks: Elman and Jordan RNNs (Shweta et al., section 4) and a BiLSTM-CRF.

Every network reads a batch of padded segments (``words [B, T]``, ``chars [B, T, C]``,
``mask [B, T]``) and has the same two methods: ``loss(batch, tags)`` (summed negative
log-likelihood) and ``predict(batch)`` (label indices ``[B, T]`` and per-token label
probabilities ``[B, T, L]``).

- **Input** (:class:`TokenInput`): each word's embedding (plus, when configured, a
  char-CNN or char-BiLSTM vector of its characters), and with ``window`` m > 0 the
  ordered concatenation of the 2m+1 vectors of the words around it (the paper's
  context window, equation 2; padding vectors beyond the segment's edges).
- **Elman** (equations 4, 7): ``h(t) = f(W C(t) + U h(t-1) + b)``, softmax output.
  ``f`` is tanh (PyTorch's fused RNN), not the paper's sigmoid: with
  ``g = 2 sigma - 1`` the two nets compute the same functions (``tanh(z/2) = 2 sigma(z) - 1``,
  an affine change of W, U and b), and the fused loop is several times faster.
- **Jordan** (equation 9): ``h(t) = sigmoid(W C(t) + U P(y(t-1)) + b)``: the previous
  token's output distribution, not its hidden state, is fed back, in training and tagging alike.
- **BiLSTM-CRF** (Lample et al. 2016): a bidirectional LSTM over the token vectors,
  label scores, and a linear-chain CRF (:mod:`.crf_layer`) on top: Viterbi labels and
  forward-backward marginals.

Elman and Jordan label each token with its most probable label (the softmax), and
its probabilities are the marginals crfdeid's P(O) threshold reads.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .crf_layer import ChainCRF


class CharEncoder(nn.Module):
    """One vector per word from its characters: a CNN (max over positions) or a BiLSTM."""

    def __init__(self, n_chars: int, dim: int, hidden: int, kind: str):
        super().__init__()
        self.kind = kind
        self.emb = nn.Embedding(n_chars, dim, padding_idx=0)
        if kind == "cnn":
            self.conv = nn.Conv1d(dim, hidden, kernel_size=3, padding=1)
            self.size = hidden
        else:
            self.lstm = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
            self.size = 2 * hidden

    def forward(self, chars: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, c = chars.shape
        out = chars.new_zeros((b, t, self.size), dtype=torch.float)
        flat = chars[mask]  # only real tokens: [N, C]
        if not len(flat):
            return out
        x = self.emb(flat)
        if self.kind == "cnn":
            h = torch.relu(self.conv(x.transpose(1, 2)))
            h = h.masked_fill((flat == 0).unsqueeze(1), float("-inf")).max(dim=2).values
        else:
            lengths = (flat != 0).sum(1).clamp(min=1).cpu()
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            _, (hn, _) = self.lstm(packed)
            h = torch.cat([hn[0], hn[1]], dim=1)
        out[mask] = h
        return out


class TokenInput(nn.Module):
    """Token vectors (word embedding, character features), then the context window."""

    def __init__(self, n_words: int, n_chars: int, cfg: dict):
        super().__init__()
        self.emb = nn.Embedding(n_words, cfg["embedding_dim"], padding_idx=0)
        nn.init.uniform_(self.emb.weight, -0.25, 0.25)  # the paper's random initialisation
        with torch.no_grad():
            self.emb.weight[0].zero_()
        kind = cfg["char_features"]
        self.chars = CharEncoder(n_chars, cfg["char_dim"], cfg["char_hidden"], kind) if kind != "none" else None
        self.window = cfg["window"]
        self.token_size = cfg["embedding_dim"] + (self.chars.size if self.chars is not None else 0)
        self.size = self.token_size * (2 * self.window + 1)

    def forward(self, words, chars, mask) -> torch.Tensor:
        x = self.emb(words)
        if self.chars is not None:
            x = torch.cat([x, self.chars(chars, mask)], dim=2)
        m = self.window
        if m:
            # Padding rows (zeros) beyond each edge, then the 2m+1 neighbours side by side.
            x = nn.functional.pad(x * mask.unsqueeze(2), (0, 0, m, m))
            x = x.unfold(1, 2 * m + 1, 1).transpose(2, 3).flatten(2)
        return x


class _Tagger(nn.Module):
    """Shared by the softmax taggers (Elman, Jordan): token cross-entropy, argmax labels."""

    def logits(self, words, chars, mask) -> torch.Tensor:
        raise NotImplementedError

    def loss(self, words, chars, mask, tags) -> torch.Tensor:
        z = self.logits(words, chars, mask)
        return nn.functional.cross_entropy(z[mask], tags[mask], reduction="sum")

    @torch.no_grad()
    def predict(self, words, chars, mask):
        p = torch.softmax(self.logits(words, chars, mask), dim=2)
        return p.argmax(2), p


class Elman(_Tagger):
    """Elman RNN: the hidden state is fed back."""

    def __init__(self, n_words, n_chars, n_labels, cfg):
        super().__init__()
        self.input = TokenInput(n_words, n_chars, cfg)
        self.drop = nn.Dropout(cfg["dropout"])
        self.rnn = nn.RNN(self.input.size, cfg["hidden"], batch_first=True, nonlinearity="tanh")
        self.out = nn.Linear(cfg["hidden"], n_labels)

    def logits(self, words, chars, mask):
        h, _ = self.rnn(self.drop(self.input(words, chars, mask)))
        return self.out(self.drop(h))


class Jordan(_Tagger):
    """Jordan RNN: the previous token's output distribution is fed back."""

    def __init__(self, n_words, n_chars, n_labels, cfg):
        super().__init__()
        self.input = TokenInput(n_words, n_chars, cfg)
        self.drop = nn.Dropout(cfg["dropout"])
        self.inp = nn.Linear(self.input.size, cfg["hidden"])  # W and b
        self.rec = nn.Linear(n_labels, cfg["hidden"], bias=False)  # U
        self.out = nn.Linear(cfg["hidden"], n_labels)  # V and c
        self.n_labels = n_labels

    def logits(self, words, chars, mask):
        xw = self.inp(self.drop(self.input(words, chars, mask)))
        p = xw.new_zeros((xw.shape[0], self.n_labels))
        out = []
        for t in range(xw.shape[1]):
            h = torch.sigmoid(xw[:, t] + self.rec(p))
            z = self.out(self.drop(h))
            p = torch.softmax(z, dim=1)
            out.append(z)
        return torch.stack(out, dim=1)


class BiLstmCrf(nn.Module):
    """A bidirectional LSTM over the token vectors with a linear-chain CRF output layer."""

    def __init__(self, n_words, n_chars, n_labels, cfg):
        super().__init__()
        self.input = TokenInput(n_words, n_chars, cfg)
        self.drop = nn.Dropout(cfg["dropout"])
        self.lstm = nn.LSTM(self.input.size, cfg["hidden"], batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * cfg["hidden"], n_labels)
        self.crf = ChainCRF(n_labels)

    def emissions(self, words, chars, mask):
        x = self.drop(self.input(words, chars, mask))
        lengths = mask.sum(1).clamp(min=1).cpu()
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=x.shape[1])
        return self.out(self.drop(h))

    def loss(self, words, chars, mask, tags):
        return self.crf.nll(self.emissions(words, chars, mask), tags, mask)

    @torch.no_grad()
    def predict(self, words, chars, mask):
        em = self.emissions(words, chars, mask)
        return self.crf.viterbi(em, mask), self.crf.marginals(em, mask)


#: Network class of each ``model`` name.
NETWORKS = {"elman": Elman, "jordan": Jordan, "bilstm-crf": BiLstmCrf}


def build(model: str, n_words: int, n_chars: int, n_labels: int, cfg: dict) -> nn.Module:
    """The network ``model`` for vocabularies and labels of these sizes and ``cfg`` (``neural``)."""
    return NETWORKS[model](n_words, n_chars, n_labels, cfg)
