
/// The extending test's throw-away primitive: class 1 folds a random block, checked against
/// the portable fold.
struct ExampleFold {
    f: cyclebench_swcrypto::example_fold::FoldFn,
    input: [u32; 16],
}

impl Subject for ExampleFold {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.input = cyclebench_swcrypto::example_fold::INPUT;
        } else {
            rng.fill_words(&mut self.input);
        }
    }

    fn call(&mut self) -> u32 {
        (self.f)(&self.input)
    }

    fn check(&mut self, class: usize, answer: u32) -> Result<(), String> {
        let expected = if class == FIXED {
            cyclebench_swcrypto::example_fold::OUTPUT
        } else {
            self.input.iter().fold(0u32, |acc, &w| acc.rotate_left(5) ^ w)
        };
        if answer == expected {
            Ok(())
        } else {
            Err(format!("{answer:08x}, expected {expected:08x}"))
        }
    }

    fn entry(&self) -> usize {
        self.f as usize
    }
}
