#!/usr/bin/env python3
# tf-cnn.py: pytorch-cnn.py's small CNN in TensorFlow 2.x (Keras), trained on synthetic data
# (no download), for roofline-run's tests (t-frameworks.sh) and bench/. Tensors are NHWC,
# TensorFlow's own layout. Batch B (default 16), input 32x32x3. Layers:
#   conv1 3->16 k3 pad same (1), ReLU; max pool 2 (to 16x16);
#   conv2 16->32 k3 pad same (1), ReLU; max pool 2 (to 8x8); flatten; dense 2048->10;
# softmax cross-entropy, plain SGD, one step a tf.function (its graph traced at the first).
# Usage: tf-cnn.py [ITERATIONS [BATCH]]; prints the iterations, the intra-op threads
# TensorFlow was given (TF_NUM_INTRAOP_THREADS; 0: its default) and images/s over the steps
# after the first (the first traces and optimises the graph).
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
import tensorflow as tf  # noqa: E402

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 10
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 16
if iters < 2 or batch < 1:
    sys.exit("tf-cnn.py: ITERATIONS must be 2 or more, BATCH 1 or more")
tf.random.set_seed(0)
L = tf.keras.layers
model = tf.keras.Sequential([
    tf.keras.Input((32, 32, 3), batch_size=batch),
    L.Conv2D(16, 3, padding="same", activation="relu"), L.MaxPool2D(2),
    L.Conv2D(32, 3, padding="same", activation="relu"), L.MaxPool2D(2),
    L.Flatten(), L.Dense(10)])
opt = tf.keras.optimizers.SGD(0.01)
lossf = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
x = tf.random.normal((batch, 32, 32, 3))
y = tf.random.uniform((batch,), 0, 10, dtype=tf.int32)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = lossf(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


loss = step()
start = time.perf_counter()
for _ in range(iters - 1):
    loss = step()
loss = float(loss)
elapsed = time.perf_counter() - start
print(f"iterations {iters} batch {batch} intra-op threads "
      f"{tf.config.threading.get_intra_op_parallelism_threads()}")
print(f"images/s {(iters - 1) * batch / elapsed:.1f} loss {loss:.4f}", flush=True)
