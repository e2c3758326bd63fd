"""SGD with momentum, one step, in place (reference): the momentum buffer and the parameters
are updated where they lie and the parameters returned, as torch.optim's foreach step does."""
import torch
from torch import nn

N = 4099          # not a multiple of the kernel's block: the last block is masked


class Model(nn.Module):
    def forward(self, p, g, buf):
        buf.mul_(0.9).add_(g)
        p.add_(buf, alpha=-0.01)
        return p


def get_inputs():
    return [torch.randn(N), torch.randn(N), torch.randn(N)]


def get_init_inputs():
    return []
