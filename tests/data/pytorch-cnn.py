#!/usr/bin/env python3
# pytorch-cnn.py: a small CNN trained on synthetic data (no download), for roofline-run's
# tests and bench/run-pytorch. Two 3x3 convolutions with padding 1 (oneDNN runs them), max
# pooling, ReLU and a linear layer (ATen and BLAS run those), cross-entropy, SGD.
# Usage: pytorch-cnn.py [ITERATIONS [BATCH]]; prints the iterations and images/s.
import sys
import time

import torch
import torch.nn as nn

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 10
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 16
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 8 * 8, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(batch, 3, 32, 32)
y = torch.randint(0, 10, (batch,))
start = time.perf_counter()
for _ in range(iters):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
elapsed = time.perf_counter() - start
print(f"iterations {iters} batch {batch} threads {torch.get_num_threads()}")
print(f"images/s {iters * batch / elapsed:.1f} loss {loss.item():.4f}")
