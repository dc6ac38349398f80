% octave_cases.m OUT — GNU Octave's FFTs (fft, ifft, fft2, ifft2, fftn, ifftn on complex
% and real data, padding and truncation with fft(x, n), transforms along a dimension) in
% double and single precision, at sizes of 8192 points and more and of less than 4096,
% then fftw('planner', ...) with each method, the wisdom calls (fftw('dwisdom'),
% fftw('swisdom'): export, clear, import) and fftw('threads', ...). Every result goes
% into OUT (save -binary) for octave_compare.m; the checks that need no reference (the
% planner and thread settings read back, wisdom round trips) are made here. Run by
% tests/apps/run.sh as installed and with libvkfftgo_fftw3 preloaded.
1;

function x = signal(n, a, b)
  % deterministic, not periodic in n: every bin carries something
  t = (0:n - 1)';
  x = cos(a * t) + 0.5 * sin(b * t .^ 1.1) + 1i * (sin(0.7 * a * t) - 0.25 * cos(b * t));
end

function check(ok, what)
  if (! ok)
    error("octave_cases: %s", what);
  end
end

args = argv();
out = args{end};
R = struct();
for p = {"double", "single"}
  P = p{1};
  c = @(v) cast(v, P);
  tag = @(s) [s "_" P];
  x = c(signal(8192, 0.013, 0.0071));
  xs = c(signal(100, 0.3, 0.11));
  X2 = c(reshape(signal(128 * 128, 0.002, 0.0013), 128, 128));
  X3 = c(reshape(signal(16 * 16 * 32, 0.004, 0.0021), 16, 16, 32));
  M = reshape(x, 64, 128);
  R.(tag("fft_1d")) = fft(x);
  R.(tag("ifft_1d")) = ifft(x);
  R.(tag("fft_1d_small")) = fft(xs);
  R.(tag("fft2")) = fft2(X2);
  R.(tag("ifft2")) = ifft2(X2);
  R.(tag("fft2_small")) = fft2(X2(1:8, 1:8));
  R.(tag("fftn")) = fftn(X3);
  R.(tag("ifftn")) = ifftn(X3);
  R.(tag("fftn_small")) = fftn(X3(1:4, 1:4, 1:4));
  R.(tag("fft_real")) = fft(real(x));
  R.(tag("fft_real_small")) = fft(real(xs));
  R.(tag("fft2_real")) = fft2(real(X2));
  R.(tag("fftn_real")) = fftn(real(X3));
  R.(tag("ifft_hermitian")) = ifft(fft(real(x)));
  R.(tag("fft_pad")) = fft(x(1:5000), 8192);
  R.(tag("fft_truncate")) = fft(x, 6000);
  R.(tag("fft_dim1")) = fft(M, [], 1);
  R.(tag("fft_dim2")) = fft(M, [], 2);
  R.(tag("ifft_dim2")) = ifft(M, [], 2);
  R.(tag("fft_dim3")) = fft(X3, [], 3);
end

% the planner methods: each read back, each transform's result kept
x = signal(8192, 0.013, 0.0071);
for m = {"estimate", "measure", "patient", "exhaustive", "hybrid"}
  fftw("planner", m{1});
  check(strcmp(fftw("planner"), m{1}), ["fftw('planner') after setting " m{1}]);
  % PATIENT and EXHAUSTIVE plan small problems only: FFTW takes seconds on 64 and 8
  % points already, minutes on 8192
  if (strcmp(m{1}, "patient"))
    R.planner_patient = fft(signal(64, 0.3, 0.11));
  elseif (strcmp(m{1}, "exhaustive"))
    R.planner_exhaustive = fft(signal(8, 0.3, 0.11));
  else
    R.(["planner_" m{1}]) = fft(x);
    R.(["planner_" m{1} "_single"]) = fft(single(x));
  end
end
fftw("planner", "estimate");

% wisdom: what the MEASURE plans above left, exported, cleared, imported again
for w = {"dwisdom", "swisdom"}
  s = fftw(w{1});
  check(ischar(s) && length(s) > 0, [w{1} " exports no wisdom"]);
  fftw(w{1}, "");
  cleared = fftw(w{1});
  check(length(cleared) < length(s), [w{1} ": clearing kept the wisdom"]);
  fftw(w{1}, s);
  again = fftw(w{1});
  check(length(again) >= length(s), [w{1} ": the imported wisdom is not back"]);
  printf("octave_cases: %s exported %d bytes, cleared to %d, imported back to %d\n", w{1}, length(s), ...
         length(cleared), length(again));
end

% threads
fftw("threads", 2);
check(fftw("threads") == 2, "fftw('threads') after setting 2");
R.threads_2 = fft(x);
fftw("threads", 1);
check(fftw("threads") == 1, "fftw('threads') after setting 1");
R.threads_1 = fft(x);

save("-binary", out, "R");
printf("octave_cases: %d results in %s\n", numfields(R), out);
