/**
 * Part 1 §5 / part 2 §9: past this many images in one case, the images tab warns that performance may suffer
 * (a warning only; uploads still go through). The spec's configuration uses 200.
 */
export const MAX_CASE_IMAGES = 200;
