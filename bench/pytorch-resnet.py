#!/usr/bin/env python3
# pytorch-resnet.py: a small ResNet-like CNN with batch norm trained on synthetic data (no
# download), for bench/run-pytorch-tune. A 3x3 stem, three stages of one residual block each
# (16, 32, 64 channels; the second and third halve the image with a strided convolution and a
# 1x1 shortcut), batch norm after every convolution, ReLU, global average pooling, a linear
# layer; cross-entropy, SGD with momentum. The training loop's throughput goes to standard
# error ("images/s N"), as trainings log it.
# Usage: pytorch-resnet.py [STEPS [BATCH]] (default 300 and 32)
import sys
import time

import torch
import torch.nn as nn

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 32


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                       nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        y = self.b2(self.c2(y))
        return torch.relu(y + (x if self.short is None else self.short(x)))


torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
    Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(batch, 3, 32, 32)
y = torch.randint(0, 10, (batch,))
start = time.perf_counter()
for _ in range(steps):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
elapsed = time.perf_counter() - start
print(f"steps {steps} batch {batch} threads {torch.get_num_threads()} loss {loss.item():.4f}")
print(f"images/s {steps * batch / elapsed:.1f}", file=sys.stderr)
