# bench/torch-train.py: the PyTorch side of bench/vs-pytorch and bench/run-all: the same nets as
# cnn/models (convnet, lenet5), synthetic data (class prototypes plus noise), SGD with momentum
# 0.9 and weight decay 5e-4; prints images/s, the median over the timed iterations after 3
# warm-up ones.
# Usage: python3 bench/torch-train.py MODEL THREADS BATCH ITERATIONS [bf16]
import sys, time, statistics
import torch, torch.nn as nn
model, threads, batch, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bf16 = len(sys.argv) > 5 and sys.argv[5] == "bf16"
torch.set_num_threads(threads)
torch.manual_seed(1)
if model == "lenet5":
    net = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5),
                        nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(256, 120), nn.ReLU(),
                        nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
    shape = (1, 28, 28)
else:
    net = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(128, 256, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(4096, 256), nn.ReLU(), nn.Linear(256, 10))
    shape = (3, 32, 32)
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
loss_fn = nn.CrossEntropyLoss()
protos = torch.rand(10, *shape) * 2 - 1
times = []
for it in range(iters + 3):
    t0 = time.perf_counter()
    y = torch.randint(0, 10, (batch,))
    x = protos[y] + (torch.rand(batch, *shape) + torch.rand(batch, *shape) - 1) * 0.5
    opt.zero_grad(set_to_none=True)
    with torch.autocast('cpu', dtype=torch.bfloat16, enabled=bf16):
        loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
    if it >= 3:
        times.append(time.perf_counter() - t0)
print(batch / statistics.median(times))
