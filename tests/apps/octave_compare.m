% octave_compare.m REFERENCE OTHER — the results of octave_cases.m from two runs, case by
% case: the same class and size, and a relative L2 difference within 1e-12 in double
% precision and 1e-6 in single. Prints each case and the largest difference per
% precision; exits with an error if any case differs more.
args = argv();
A = load(args{end - 1}).R;
B = load(args{end}).R;
names = fieldnames(A);
worst = struct("double", 0, "single", 0);
bad = 0;
if (! isequal(sort(names), sort(fieldnames(B))))
  error("octave_compare: the two runs have different cases");
end
for i = 1:numel(names)
  a = A.(names{i});
  b = B.(names{i});
  cls = class(a);
  tol = 1e-12;
  if (strcmp(cls, "single"))
    tol = 1e-6;
  end
  if (! strcmp(cls, class(b)) || ! isequal(size(a), size(b)))
    printf("   %-26s %s %s against %s %s: DIFFERENT SHAPE\n", names{i}, cls, mat2str(size(a)), class(b), mat2str(size(b)));
    bad++;
    continue;
  end
  rel = double(norm(a(:) - b(:))) / max(double(norm(a(:))), realmin);
  worst.(cls) = max(worst.(cls), rel);
  ok = rel <= tol;
  bad += ! ok;
  printf("   %-26s %-6s %-14s relative L2 difference %.2e%s\n", names{i}, cls, mat2str(size(a)), rel, ...
         merge(ok, "", sprintf("  ABOVE %.0e", tol)));
end
printf("octave_compare: %d cases, largest relative L2 difference %.2e (double, limit 1e-12), %.2e (single, limit 1e-6)\n", ...
       numel(names), worst.double, worst.single);
if (bad)
  error("octave_compare: %d cases differ beyond the limit", bad);
end
