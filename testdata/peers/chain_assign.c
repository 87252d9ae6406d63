// Chained assignments (a1 = a5 = k;), as PolyBench's deriche.c writes them: inner first, outer reads it back.
#define W 24
#define H 16
float img[W][H], y1[W][H], y2[W][H], out[W][H];
float k, a1, a2, a3, a4, a5, a6, b1, b2;

void kernel(float alpha) {
#pragma scop
  k = (1.0f - alpha) * (1.0f - alpha) / (1.0f + 2.0f * alpha);
  a1 = a5 = k;
  a2 = a6 = k * (alpha - 1.0f);
  a3 = a4 = -k * alpha * alpha;
  b1 = 2.0f * alpha;
  b2 = -alpha * alpha;
  for (int i = 0; i < W; i++) {
    float ym1 = 0.0f, ym2 = 0.0f, xm1 = 0.0f;
    for (int j = 0; j < H; j++) {
      y1[i][j] = a1 * img[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = img[i][j];
      ym2 = ym1;
      ym1 = y1[i][j];
    }
  }
  for (int i = 0; i < W; i++) {
    float yp1 = 0.0f, yp2 = 0.0f, xp1, xp2;
    xp1 = xp2 = 0.0f;
    for (int j = H - 1; j >= 0; j--) {
      y2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = img[i][j];
      yp2 = yp1;
      yp1 = y2[i][j];
    }
  }
  for (int i = 0; i < W; i++)
    for (int j = 0; j < H; j++)
      out[i][j] = a5 * (y1[i][j] + y2[i][j]) + a6;
#pragma endscop
}
